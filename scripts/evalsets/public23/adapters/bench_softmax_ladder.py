"""Adapter of the p23-softmax-ladder family (kforecast's own code): the wrapper `softmax(x)`
of each step of the ladder, on a float32 4096 x 16384 matrix (2^26 elements; the author's
ladder is about long rows), softmax over the last dimension."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

ROWS, COLS = 4096, 16384
TOL = {"rtol": 2e-3, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(ROWS, COLS, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=-1)


def build(path):
    return kf.load_module(path).softmax
