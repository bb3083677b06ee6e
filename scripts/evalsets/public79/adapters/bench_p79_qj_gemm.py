"""Adapter of p79-qj-gemm (kforecast's own code): each version's `extern "C" void kf_run(A, B, C,
M, N, K)` (the GEMM driver's call of the file's launcher: custom_sgemm with alpha 1 and beta 0, or
naive_mm / shared_mm0-2) on row-major fp32 A (M x K) and B (K x N) of values in [0, 1)
(main.cpp's rand() / RAND_MAX), M = N = K = 4096; C is zeroed first inside the timed call (as
main.cpp; the kernels read beta*C). Output: C, compared with a float64 product."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = K = 4096
TOL = {"rtol": 5e-4, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(M, K, device="cuda", dtype=torch.float32, generator=g)
    b = torch.rand(K, N, device="cuda", dtype=torch.float32, generator=g)
    return a, b


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3

    def run(a, b):
        c = torch.zeros(M, N, device="cuda", dtype=torch.float32)
        fn(ptr(a), ptr(b), ptr(c), M, N, K)
        return c
    return run
