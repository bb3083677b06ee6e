"""Adapter of p54-xh-gemm (kforecast's own code): C = A B, fp32 row-major, M = N = K = 1024
(the programs' #define sizes). kf_run(A, B, C) is main()'s grid and launch lines for one
kernel; A and B are drawn in [-1, 1)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

S = 1024
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand((S, S), device="cuda", generator=g) * 2 - 1
    b = torch.rand((S, S), device="cuda", generator=g) * 2 - 1
    c = torch.empty((S, S), device="cuda")
    return (a, b, c)


def reference(a, b, c):
    return a.double() @ b.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]

    def fn(a, b, c):
        lib.kf_run(ptr(a), ptr(b), ptr(c))
        return c
    return fn
