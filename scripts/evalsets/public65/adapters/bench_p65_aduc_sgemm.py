"""Adapter of p65-aduc-sgemm (kforecast's own code): each version's `extern "C" kf_run(A, B, C,
alpha, beta, M, N, K)` (the file's host launcher) on row-major fp32 A (2048, 2048), B (2048,
2048) and C (2048, 2048), alpha 1.2 and beta 1.3 (test.cu's); C is cloned before each call (as
test.cu's resetC copies a saved C back). Output: alpha A B + beta C (fp32)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = K = 2048
ALPHA, BETA = 1.2, 1.3
TOL = {"rtol": 1e-3, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, K, device="cuda", generator=g),
            torch.randn(K, N, device="cuda", generator=g),
            torch.randn(M, N, device="cuda", generator=g))


def reference(a, b, c):
    return ALPHA * (a.double() @ b.double()) + BETA * c.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_float] * 2 + [ctypes.c_uint] * 3

    def run(a, b, c):
        out = c.clone()
        fn(ptr(a), ptr(b), ptr(out), ALPHA, BETA, M, N, K)
        return out
    return run
