"""Adapter of p65-xs-transpose (kforecast's own code): each version's `extern "C" kf_run(d_mtx,
d_trans_mtx, nx, ny)` (main()'s grid set-up and the launch line of one kernel) on a row-major fp32
matrix of ny = 8192 rows and nx = 8192 columns (main()'s 1 << 13). Output: its transpose (nx, ny),
exact."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

NX = NY = 1 << 13
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(NY, NX, device="cuda", generator=g),)


def reference(m):
    return m.double().t()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 2 + [ctypes.c_int] * 2

    def run(m):
        out = torch.empty(NX, NY, device="cuda", dtype=torch.float32)
        fn(ptr(m), ptr(out), NX, NY)
        return out
    return run
