"""Adapter (ours) for p14-sj-vecadd: C = A + B over 2^24 doubles."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
from _p14common import c_int, check_launch, load, ptr, stream  # noqa: E402,F401

N = 1 << 24
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(N, dtype=torch.float64, device="cuda", generator=g)
    return (a, torch.randn(N, dtype=torch.float64, device="cuda", generator=g))


def reference(a, b):
    return a + b


def build(path):
    lib = load(path)

    def fn(a, b):
        c = torch.empty_like(a)
        lib.kf_run(ptr(a), ptr(b), ptr(c), stream())
        check_launch()
        return c

    return fn
