"""Adapter of p41-lv-reduce (kforecast's own code): sum of N = 2^24 float32 values uniform in
[-1, 1] (tests/test_reduce.cu's N and fill_random_float), through each version's kf_run (the
test's cudaMemset of the output and its call of the step's launcher)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 24
# float32 atomicAdd of 65536 block sums into a total of a few thousand.
TOL = {"rtol": 1e-3, "atol": 1.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, device="cuda", generator=g, dtype=torch.float32) * 2 - 1
    out = torch.empty(1, device="cuda", dtype=torch.float32)
    return (x, out)


def reference(x, out):
    return x.to(torch.float64).sum().reshape(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

    def fn(x, out):
        lib.kf_run(ptr(x), ptr(out), N)
        return out
    return fn
