"""Adapter of p44-js-pipeline (kforecast's own code): float32 C = A @ B with M = N = K = 2048
(compile-time constants of the source's common.cuh), A and B uniform in [-1, 1) as init_matrix
draws them; each version's kf_run (the launch main() times) on row-major device buffers, C
allocated per call. Built as the Makefile builds: -O3 -std=c++17 --expt-relaxed-constexpr."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = K = 2048
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(M, K, device="cuda", generator=g) * 2 - 1
    b = torch.rand(K, N, device="cuda", generator=g) * 2 - 1
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17", "--expt-relaxed-constexpr"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]

    def fn(a, b):
        c = torch.empty(M, N, device="cuda")
        lib.kf_run(ptr(a), ptr(b), ptr(c))
        return c
    return fn
