"""Adapter of p11-kc-avgpool1d (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p11common as p11  # noqa: E402

SHAPE = (16, 64, 65536)  # problem 44's 64 x 128 x 65536 cut to 2^26 elements
KERNEL, STRIDE, PADDING = 8, 1, 4  # problem 44's
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    return (torch.rand(*SHAPE, device="cuda", generator=p11.gen(seed)),)


def reference(x):
    return torch.nn.functional.avg_pool1d(x.double(), KERNEL, STRIDE, PADDING)


def build(path):
    return p11.kernelbench(path, (KERNEL, STRIDE, PADDING))
