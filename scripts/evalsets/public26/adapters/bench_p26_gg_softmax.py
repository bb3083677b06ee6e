"""Adapter of p26-gg-softmax (kforecast's own code): row softmax of an 8192 x 8192 float matrix
drawn like the author's benchmark (torch.randn), built with the author's flags (-O3
--use_fast_math, from its benchmark_softmax.py)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M, N = 8192, 8192
TOL = {"rtol": 1e-3, "atol": 1e-7}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=-1)


def build(path):
    lib = nvcc_library(path, flags=("-O3", "--use_fast_math"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int]

    def fn(x):
        out = torch.empty_like(x)
        lib.kf_run(ptr(out), ptr(x), M, N)
        return out
    return fn
