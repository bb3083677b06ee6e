"""Adapter of p93-tp-sgemm and p93-tp-sgemm128-hist (kforecast's own code): each version's
`extern "C" void kf_run(d_A, d_B, d_C, m, n, k)` (test_MMult.cpp's call of the file's host launcher
`MY_MMult(handle, m, n, k, d_A, k, d_B, n, d_C, n)`, the cuBLAS handle unused by the hand-written
kernels and passed as null) on row-major fp32 A (m x k) and B (k x n) of uniform [-1, 1) values
(random_matrix.cpp: 2 * drand48() - 1), m = n = k = 4096 (parameters.h's PLAST); output C (m x n),
compared with a float64 product."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = K = 4096
TOL = {"rtol": 1e-3, "atol": 5e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(M, K, device="cuda", dtype=torch.float32, generator=g) * 2 - 1
    b = torch.rand(K, N, device="cuda", dtype=torch.float32, generator=g) * 2 - 1
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3

    def run(a, b):
        c = torch.empty(M, N, device="cuda", dtype=torch.float32)
        fn(ptr(a), ptr(b), ptr(c), M, N, K)
        return c
    return run
