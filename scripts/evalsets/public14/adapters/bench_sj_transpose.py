"""Adapter (ours) for p14-sj-transpose: a 4096 x 4096 uint64 matrix (held as int64) and its
transpose."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
from _p14common import c_int, check_launch, load, ptr, stream  # noqa: E402,F401

M = N = 4096
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 1 << 40, (M, N), dtype=torch.int64, device="cuda", generator=g),)


def reference(a):
    return a.t().contiguous()


def build(path):
    lib = load(path)

    def fn(a):
        out = torch.empty(N, M, dtype=torch.int64, device="cuda")
        lib.kf_run(ptr(a), ptr(out), stream())
        check_launch()
        return out

    return fn
