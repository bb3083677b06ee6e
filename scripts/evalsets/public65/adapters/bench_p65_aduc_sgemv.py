"""Adapter of p65-aduc-sgemv (kforecast's own code): each version's `extern "C" kf_run(A, x, y, M,
N)` (a host launcher of sgemv.cuh) on row-major fp32 A (1 << 20, 32) and x (32,). Output: y = A x
(fp32, (M,))."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M, N = 1 << 20, 32
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g),
            torch.randn(N, device="cuda", generator=g))


def reference(a, x):
    return a.double() @ x.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2

    def run(a, x):
        y = torch.empty(M, device="cuda", dtype=torch.float32)
        fn(ptr(a), ptr(x), ptr(y), M, N)
        return y
    return run
