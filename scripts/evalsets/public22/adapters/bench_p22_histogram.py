"""Adapter of p22-tk-histogram (kforecast's own code): histogram of 2^26 lowercase letters
into 7 bins of 4 letters (the source reads its letters from a data file)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 26
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    letters = torch.randint(ord("a"), ord("z") + 1, (N,), device="cuda", generator=g, dtype=torch.uint8)
    histo = torch.empty(7, device="cuda", dtype=torch.int32)
    return (letters, histo)


def reference(letters, histo):
    return torch.bincount((letters.long() - ord("a")) // 4, minlength=7).to(torch.int32)


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]

    def fn(letters, histo):
        histo.zero_()  # the versions add into the bins (cudaMalloc'd, never cleared by the source)
        lib.kf_run(N, ptr(letters), ptr(histo))
        return histo
    return fn
