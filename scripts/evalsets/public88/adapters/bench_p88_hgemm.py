"""Adapter of p88-hgemm-wmma and p88-hgemm-mma (kforecast's own code): each version's
`extern "C" void kf_run(A, B, C, M, N, K)` (the file's host launcher) on fp16 A (4096, 4096)
row-major and B stored (N, K) = (4096, 4096) row-major, as Bruce-Lee-LY/cuda_hgemm's kernels and
its cuBLAS check (CUBLAS_OP_T on B, ldb = K) read it; values randn / 8 (sums of 4096 products of
unit scale, as the kernels accumulate in half). Output: C = A B^T of the stored B (fp16, 4096 x
4096), against a float64 reference with a half-accumulation tolerance."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M, N, K = 4096, 4096, 4096
TOL = {"rtol": 2e-2, "atol": 0.25}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return ((torch.randn(M, K, device="cuda", generator=g) / 8).half(),
            (torch.randn(N, K, device="cuda", generator=g) / 8).half())


def reference(a, b):
    return a.double() @ b.double().t()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_size_t] * 3

    def run(a, b):
        c = torch.empty(M, N, device="cuda", dtype=torch.float16)
        fn(ptr(a), ptr(b), ptr(c), M, N, K)
        return c
    return run
