"""Adapter (ours) for p14-cc-transpose: A is M x N = 4096 x 5000 floats (main()'s sizes),
AT its 5000 x 4096 transpose."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
from _p14common import c_int, check_launch, load, ptr, stream  # noqa: E402,F401

M, N = 4096, 5000
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(M, N, device="cuda", generator=g),)


def reference(a):
    return a.double().t().contiguous()


def build(path):
    lib = load(path)

    def fn(a):
        at = torch.empty(N, M, device="cuda")
        lib.kf_run(ptr(a), ptr(at))
        check_launch()
        return at

    return fn
