"""Adapter of the p23-trident-sum family (kforecast's own code): trident's Sum operation's
host launcher (`__forward`) at each commit, the sum over dim 1 of a 16384 x 4096 float32
matrix (2^26 elements)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

ROWS, COLS = 16384, 4096
TOL = {"rtol": 1e-4, "atol": 2e-3}  # float32 sums of 4096 normal values (about 64 in size)


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(ROWS, COLS, device="cuda", generator=g),)


def reference(x):
    return x.double().sum(dim=1)


def build(path):
    fwd = kf.load_module(path).Sum._Sum__forward
    return lambda x: kf.first(fwd(x, 1))
