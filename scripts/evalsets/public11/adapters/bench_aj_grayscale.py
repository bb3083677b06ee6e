"""Adapter of p11-aj-grayscale (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p11common as p11  # noqa: E402

H = W = 8192
TOL = {"rtol": 1e-5, "atol": 1e-5}


def make_inputs(seed):
    rgb = torch.rand(1, 3, H, W, device="cuda", generator=p11.gen(seed))
    out = torch.full((1, H, W), float("nan"), device="cuda")
    return (rgb, out)


def reference(rgb, out):
    r, g, b = rgb.double().unbind(1)
    return 0.299 * r + 0.587 * g + 0.114 * b


def build(path):
    return p11.gpumode(path)
