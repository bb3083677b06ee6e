"""Adapter of the "pc-" sgemv family (kforecast's own code): y = A x with A row-major
M x N float32, through each program's `kf_run` (M and N passed as main() reads them from
argv). Sizes: M = 16384, N = 4096 (256 MB of A; N a multiple of 128 as Sgemv_v1 needs)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M, N = 16384, 4096
TOL = {"rtol": 1e-4, "atol": 1e-3}  # float32 dot products of 4096 terms in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g), torch.randn(N, device="cuda", generator=g))


def reference(a, x):
    return a.double() @ x.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-lcublas"))
    run = lib.kf_run
    run.restype = ctypes.c_longlong
    run.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_longlong] * 2

    def fn(a, x):
        m, n = a.shape
        y = torch.empty(m, device=a.device, dtype=a.dtype)
        count = run(ptr(a), ptr(x), ptr(y), None, m, n)
        if count < 0:
            raise RuntimeError(f"{path}: CUDA error {-count}")
        return y

    return fn
