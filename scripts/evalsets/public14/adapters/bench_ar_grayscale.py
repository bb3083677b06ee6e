"""Adapter (ours) for p14-ar-grayscale: a contiguous planar 3 x 8192 x 8192 uint8 image to a
1 x 8192 x 8192 gray image."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
from _p14common import load_extension  # noqa: E402

SHAPE = (3, 8192, 8192)


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 256, SHAPE, dtype=torch.uint8, device="cuda", generator=g),)


def build(path):
    mod = load_extension(path)
    return lambda image: mod.rgb2gray(image)
