"""Adapter of p17-ah-vectoradd (kforecast's own code): GPU MODE vectoradd, 8192 x 8192 fp16."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p17common as kf  # noqa: E402

SIZE = 8192
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(SIZE, SIZE, device="cuda", generator=g).half()
    b = torch.randn(SIZE, SIZE, device="cuda", generator=g).half()
    return (a, b)


def reference(a, b):
    return a.double() + b.double()


def build(path):
    ck = kf.custom_kernel(path)
    return lambda a, b: ck((a, b))
