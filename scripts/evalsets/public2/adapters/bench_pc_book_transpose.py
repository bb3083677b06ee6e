"""Adapter of the "pc-book-transpose" families (kforecast's own code): the transpose of a
float matrix of ny rows and nx columns through each program's `kf_run` (nx, ny passed as the
book's main() reads them from argv where it does; chapter 5's programs use main()'s own
4096 x 4096). The programs include the book's ../common/common.h (_vendor/pubcuda/common/)."""
import ctypes
import os

import torch
from progbuild import nvcc_library, ptr

TOL = {"rtol": 0.0, "atol": 0.0}  # a copy: exact
INC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda", "common")
SIZE = 8192 if os.path.basename(os.path.dirname(os.path.abspath(__file__))) == "pc-book-transpose" else 4096


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(SIZE, SIZE, device="cuda", generator=g),)


def reference(a):
    return a.double().t().contiguous()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-I", INC))
    run = lib.kf_run
    run.restype = ctypes.c_longlong
    run.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_longlong] * 2

    def fn(a):
        ny, nx = a.shape
        out = torch.empty(nx, ny, device=a.device, dtype=a.dtype)
        count = run(ptr(a), None, ptr(out), None, ny, nx)
        if count < 0:
            raise RuntimeError(f"{path}: CUDA error {-count}")
        return out

    return fn
