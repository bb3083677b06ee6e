"""Adapter of p75-da-matmul (kforecast's own code): each version's `extern "C" void kf_run(dA, dB,
dC, N, M, K)` (test.cuh's launch line of one Dragon-Alpha GEMM macro, LB = 4) on fp32 row-major
A (N, K) and B (K, M), N = M = K = 4096, values (rand() % 1000) / 1000 as test.cuh's
newRandomPtr; output: C = A B (N, M), compared with the float64 product."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = M = K = 4096
TOL = {"rtol": 1e-4, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randint(0, 1000, (N, K), device="cuda", generator=g).float() / 1000
    b = torch.randint(0, 1000, (K, M), device="cuda", generator=g).float() / 1000
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3

    def run(a, b):
        c = torch.empty(N, M, device="cuda", dtype=torch.float32)
        fn(ptr(a), ptr(b), ptr(c), N, M, K)
        return c
    return run
