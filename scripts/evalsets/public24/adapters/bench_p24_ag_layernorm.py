"""Adapter of p24-ag-layernorm (kforecast's own code): (x - mean) / sqrt(var + 1e-6) over the
rows of a 4096 x 4096 float matrix (no weight or bias), each version's kf_run launching its
kernel as the source's run_*_ln() does."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = 4096
EPS = 1e-6
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g),)


def reference(x):
    x = x.double()
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + EPS)


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int]

    def fn(x):
        out = torch.empty_like(x)
        lib.kf_run(ptr(x), ptr(out), M, N)
        return out
    return fn
