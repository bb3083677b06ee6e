"""Adapter of the "pc-book-summatrix" family (kforecast's own code): C = A + B of 2^14 x 2^14
floats (the book's main() size) through each program's `kf_run`. The programs include the
book's ../common/common.h, vendored under _vendor/pubcuda/common/."""
import ctypes
import os

import torch
from progbuild import nvcc_library, ptr

NX = NY = 1 << 14
TOL = {"rtol": 1e-6, "atol": 0.0}  # one float32 add per element against float64
INC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda", "common")


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(NY, NX, device="cuda", generator=g), torch.randn(NY, NX, device="cuda", generator=g))


def reference(a, b):
    return a.double() + b.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-I", INC))
    run = lib.kf_run
    run.restype = ctypes.c_longlong
    run.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_longlong] * 2

    def fn(a, b):
        out = torch.empty_like(a)
        count = run(ptr(a), ptr(b), ptr(out), None, a.shape[0], a.shape[1])
        if count < 0:
            raise RuntimeError(f"{path}: CUDA error {-count}")
        return out

    return fn
