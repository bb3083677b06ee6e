"""Adapter of the p19-opus-softmax family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p19common as kf  # noqa: E402

ROWS, COLS = 16384, 4096
TOL = {"rtol": 1e-4, "atol": 1e-6}


def make_inputs(seed):
    import torch

    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(ROWS, COLS, device="cuda", generator=g),)


def reference(x):
    import torch

    return torch.softmax(x.double(), dim=-1)


def build(path):
    return kf.entry(path)
