"""Adapter of p3-lecture-vecadd (kforecast's own code): GPU MODE lectures' float add."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pub3"))
import torch  # noqa: E402

import p3common as p3  # noqa: E402

N = 1 << 25  # coarsening.cu's versions have it as their #define N
TOL = {"rtol": 1e-6, "atol": 1e-7}  # float32 sums against the float64 reference


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g), torch.randn(N, device="cuda", generator=g))


def reference(a, b):
    return a.double() + b.double()


def build(path):
    from progbuild import ptr

    run = p3.cuda_program(path)
    run.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int]

    def fn(a, b):
        out = torch.empty_like(a)
        p3.check(run(ptr(a), ptr(b), ptr(out), a.numel()), path)
        return out

    return fn
