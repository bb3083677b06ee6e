"""Adapter of p32-sh-matmul (kforecast's own code): P = M @ N, float32, width 1280;
kf_run(M, N, P, width) holds the step's host function's grid lines and launch."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

WIDTH = 1280
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    m = torch.randn(WIDTH, WIDTH, device="cuda", generator=g)
    n = torch.randn(WIDTH, WIDTH, device="cuda", generator=g)
    p = torch.empty(WIDTH, WIDTH, device="cuda")
    return (m, n, p)


def reference(m, n, p):
    return m.double() @ n.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

    def fn(m, n, p):
        lib.kf_run(ptr(m), ptr(n), ptr(p), WIDTH)
        return p
    return fn
