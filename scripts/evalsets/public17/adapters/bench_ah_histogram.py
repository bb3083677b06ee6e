"""Adapter of p17-ah-histogram (kforecast's own code): GPU MODE histogram, 2^26 uint8."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p17common as kf  # noqa: E402

N = 1 << 26
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 256, (N,), device="cuda", generator=g, dtype=torch.uint8),)


def reference(data):
    return torch.bincount(data.long(), minlength=256).double()


def build(path):
    ck = kf.custom_kernel(path)
    return lambda data: ck(data).long()
