"""Adapter of p41-lv-softmax (kforecast's own code): softmax of one vector of N = 2^24 float32
values uniform in [-1, 1] (tests/test_softmax.cu's N), through each version's kf_run (the
test's call of the step's launcher)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 24
# Outputs are about 1/N (6e-8); float32 sums of 2^24 exponentials.
TOL = {"rtol": 2e-3, "atol": 1e-10}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, device="cuda", generator=g, dtype=torch.float32) * 2 - 1
    out = torch.empty(N, device="cuda", dtype=torch.float32)
    return (x, out)


def reference(x, out):
    return torch.softmax(x.to(torch.float64), dim=0)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

    def fn(x, out):
        lib.kf_run(ptr(x), ptr(out), N)
        return out
    return fn
