"""Adapter of p84-ckl-sgemm (kforecast's own code): each version's `extern "C" void kf_run(a, b, c,
m, n, k, alpha, beta, stream)` (the file's host launcher `ckl::gemm_*`) on row-major fp32 A (4096 x
4096) and B (4096 x 4096) of uniform [-1, 1) values (the library's random_matrix), alpha 1, beta 0
on a C zeroed per call (its benchmark zeroes C too; the kernels read C for beta); torch's current
stream. A version whose launcher falls back to an earlier rung is linked with that rung's file
(`deps/`, a second translation unit); `-lcublas` for the cuBLAS wrapper. Output: C (4096, 4096),
compared with a float64 product."""
import ctypes
import os

import torch
from progbuild import nvcc_library, ptr, stream

M = N = K = 4096
TOL = {"rtol": 1e-3, "atol": 1e-3}
DEPS = {"v1_tiled.cu": ["gemm_naive.cu"],
        "v2_register.cu": ["gemm_tiled.cu", "gemm_naive.cu"],
        "v3_cp_async.cu": ["gemm_tiled.cu", "gemm_naive.cu"]}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(M, K, device="cuda", dtype=torch.float32, generator=g) * 2 - 1
    b = torch.rand(K, N, device="cuda", dtype=torch.float32, generator=g) * 2 - 1
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    here = os.path.dirname(os.path.abspath(path))
    deps = [os.path.join(here, "deps", d) for d in DEPS.get(os.path.basename(path), [])]
    lib = nvcc_library(path, flags=("-O3", "-lcublas", *deps))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3 + [ctypes.c_float] * 2 + [ctypes.c_void_p]

    def run(a, b):
        c = torch.zeros(M, N, device="cuda", dtype=torch.float32)
        fn(ptr(a), ptr(b), ptr(c), M, N, K, 1.0, 0.0, stream())
        return c
    return run
