"""Adapter of p84-ckl-hgemm (kforecast's own code): each version's `extern "C" void kf_run(a, b, c,
m, n, k, alpha, beta, stream)` (the file's host launcher `ckl::gemm_*`) on row-major fp16 A (8192 x
8192) and B (8192 x 8192) of uniform [-1, 1) values rounded to half (the library's random_matrix
then __float2half), alpha 1, beta 0 on an fp32 C zeroed per call (its benchmark zeroes C; the
kernels read C for beta); torch's current stream. A version whose launcher falls back to the WMMA
rung is linked with that rung's file (`deps/`, a second translation unit, at the version's
commit); `-lcublas` for the cublasGemmEx wrapper. Output: C (8192, 8192) fp32, compared with a
float64 product of the half inputs."""
import ctypes
import os

import torch
from progbuild import nvcc_library, ptr, stream

M = N = K = 8192
TOL = {"rtol": 1e-3, "atol": 2e-2}
DEPS = {"v1_mma_ptx.cu": ["gemm_wmma_fp16.cu"],
        "v2_mma_ldm.cu": ["gemm_wmma_fp16.cu"],
        "v3_mma_opt_r7.cu": ["gemm_wmma_fp16_r7.cu"],
        "v4_mma_opt.cu": ["gemm_wmma_fp16.cu"]}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.rand(M, K, device="cuda", dtype=torch.float32, generator=g) * 2 - 1).half()
    b = (torch.rand(K, N, device="cuda", dtype=torch.float32, generator=g) * 2 - 1).half()
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
