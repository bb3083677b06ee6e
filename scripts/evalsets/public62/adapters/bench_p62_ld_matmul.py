"""Adapter of p62-ld-matmul (kforecast's own code): each version's `extern "C" kf_run(M, N, P,
width)` (the launch lines of the file's host launcher) on row-major fp32 M, N (2048, 2048);
output P = M @ N (fp32)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

W = 2048
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(W, W, device="cuda", generator=g),
            torch.randn(W, W, device="cuda", generator=g))


def reference(m, n):
    return m.double() @ n.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int]

    def run(m, n):
        p = torch.empty(W, W, device="cuda", dtype=torch.float32)
        fn(ptr(m), ptr(n), ptr(p), W)
        return p
    return run
