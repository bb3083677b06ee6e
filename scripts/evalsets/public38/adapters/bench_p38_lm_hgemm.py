"""Adapter of p38-lm-hgemm (kforecast's own code): C = A B, row-major float16,
m = n = k = 2048, A and B integers uniform in [0, 5] (the source's random_initialize_matrix),
alpha 1, beta 0, through each version's kf_run (the source's launcher)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = K = 2048
# The source's fp16 tolerances (abs 5e-2, rel 1e-1): v00-v06 accumulate in half.
TOL = {"rtol": 1e-1, "atol": 5e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randint(0, 6, (M, K), device="cuda", generator=g).half()
    b = torch.randint(0, 6, (K, N), device="cuda", generator=g).half()
    c = torch.zeros(M, N, device="cuda", dtype=torch.float16)  # beta = 0 reads C: keep it finite
    return (a, b, c)


def reference(a, b, c):
    return a.double() @ b.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_size_t] * 3

    def fn(a, b, c):
        lib.kf_run(ptr(a), ptr(b), ptr(c), M, N, K)
        return c
    return fn
