"""Adapter of p41-lv-gemm (kforecast's own code): C = A B, A and B 1024 x 1024 half row-major,
values uniform in [-1, 1] (tests/test_gemm.cu's sizes, alpha 1, beta 0), through each
version's kf_run (the test's call of the step's launcher)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = K = 1024
# half outputs of about +-10 (+-40 at most): a half ulp there is 0.0078-0.03.
TOL = {"rtol": 5e-3, "atol": 5e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.rand(M, K, device="cuda", generator=g) * 2 - 1).half()
    b = (torch.rand(K, N, device="cuda", generator=g) * 2 - 1).half()
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    return (a, b, c)


def reference(a, b, c):
    return a.to(torch.float64) @ b.to(torch.float64)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3

    def fn(a, b, c):
        lib.kf_run(ptr(a), ptr(b), ptr(c), M, N, K)
        return c
    return fn
