"""Adapter of p89-wz-sgemm (kforecast's own code): each version's `extern "C" void kf_run(A, B, C,
M, N, K)` (utils.cu's launcher test_mysgemm_vN, or test_cublas, with sgemm.cu main()'s alpha 1,
beta 0) on row-major fp32 A (M x K), B (K x N), C (M x N), M = N = K = 4096, values randn (mean 0;
main() draws +-(0..4.04) by rand()). C is zero-filled before each call (the kernels read
beta * C, and 0 * NaN would poison it). Output: C = A B."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M, N, K = 4096, 4096, 4096
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, K, device="cuda", generator=g),
            torch.randn(K, N, device="cuda", generator=g))


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    flags = ("-O3", "-lcublas") if "cublas" in path else ("-O3",)
    lib = nvcc_library(path, flags=flags)
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3

    def run(a, b):
        c = torch.zeros(M, N, device="cuda", dtype=torch.float32)
        fn(ptr(a), ptr(b), ptr(c), M, N, K)
        return c
    return run
