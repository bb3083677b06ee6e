"""Adapter (ours) for p14-ar-meanblur: a planar 3 x 4096 x 4096 uint8 image, 7x7 mean blur
(the sample's kernel size); the torch version is the source's mean_blur(image, 7)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
from _p14common import load_extension  # noqa: E402

SHAPE = (3, 4096, 4096)
KERNEL_SIZE = 7


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 256, SHAPE, dtype=torch.uint8, device="cuda", generator=g),)


def build(path):
    mod = load_extension(path)  # the torch program or the extension: both name it mean_blur
    return lambda image: mod.mean_blur(image, KERNEL_SIZE)
