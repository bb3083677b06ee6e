"""Adapter of p59-sd-histogram (kforecast's own code): two-bin histogram (false / true) of
2^24 random booleans held as unsigned short, as the source's host functions convert
std::vector<bool>. kf_run(data, hist, n) is one host function's device lines (clear of the
bins, occupancy-API grid, launch, checked synchronisation). The comparison is exact."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 24
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    data = torch.randint(0, 2, (N,), device="cuda", generator=g, dtype=torch.int32).to(torch.int16)
    hist = torch.empty(2, device="cuda", dtype=torch.int32)
    return (data, hist)


def reference(data, hist):
    return torch.bincount(data.long(), minlength=2).to(torch.int32)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]

    def fn(data, hist):
        lib.kf_run(ptr(data), ptr(hist), N)
        return hist
    return fn
