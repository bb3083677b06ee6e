"""Adapter of p17-ah-sort (kforecast's own code): GPU MODE sort, 2^24 floats."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p17common as kf  # noqa: E402

N = 1 << 24
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g),)


def reference(data):
    return torch.sort(data.double())[0]


def build(path):
    return kf.custom_kernel(path)
