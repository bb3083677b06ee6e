"""Adapter of p84-ckl-gemv (kforecast's own code): each version's `extern "C" void kf_run(a, x, y,
m, n, alpha, beta, stream)` (the file's host launcher `ckl::gemv_*`) on a row-major fp32 A (16384 x
16384) and x (16384) of uniform [-1, 1) values (the library's random_matrix), alpha 1, beta 0 on a
y zeroed per call (its benchmark zeroes y; the kernels read y for beta); torch's current stream.
The vectorized version is linked with gemv_warp's file (`deps/`, its fallback for n % 4 != 0);
`-lcublas` for the SGEMV wrapper. Output: y (16384,), compared with a float64 product."""
import ctypes
import os

import torch
from progbuild import nvcc_library, ptr, stream

M = N = 16384
TOL = {"rtol": 1e-3, "atol": 1e-3}
DEPS = {"v2_vectorized.cu": ["gemv_warp.cu"]}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(M, N, device="cuda", dtype=torch.float32, generator=g) * 2 - 1
    x = torch.rand(N, device="cuda", dtype=torch.float32, generator=g) * 2 - 1
    return (a, x)


def reference(a, x):
    return a.double() @ x.double()


def build(path):
    here = os.path.dirname(os.path.abspath(path))
    deps = [os.path.join(here, "deps", d) for d in DEPS.get(os.path.basename(path), [])]
    lib = nvcc_library(path, flags=("-O3", "-lcublas", *deps))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2 + [ctypes.c_float] * 2 + [ctypes.c_void_p]

    def run(a, x):
        y = torch.zeros(M, device="cuda", dtype=torch.float32)
        fn(ptr(a), ptr(x), ptr(y), M, N, 1.0, 0.0, stream())
        return y
    return run
