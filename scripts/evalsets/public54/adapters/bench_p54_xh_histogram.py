"""Adapter of p54-xh-histogram (kforecast's own code): 256-bin histogram of 2^20 random
bytes. kf_run(data, hist, N) is time_kernel<Kernel>()'s grid, its cudaMemset of the bins
and one launch. The comparison is exact."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1024 * 1024
BINS = 256
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    data = torch.randint(0, 256, (N,), device="cuda", generator=g, dtype=torch.int32).to(torch.uint8)
    hist = torch.empty(BINS, device="cuda", dtype=torch.int32)
    return (data, hist)


def reference(data, hist):
    return torch.bincount(data.long(), minlength=BINS).to(torch.int32)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

    def fn(data, hist):
        lib.kf_run(ptr(data), ptr(hist), N)
        return hist
    return fn
