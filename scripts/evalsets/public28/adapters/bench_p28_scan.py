"""Adapter of p28-sl-scan (kforecast's own code): inclusive prefix sum of 2^26 floats
uniform in [0, 1), through each file's own host function scan_gpu_d(input, output, N)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 26
TOL = {"rtol": 1e-3, "atol": 1.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, device="cuda", generator=g)
    out = torch.empty(N, device="cuda")
    return (x, out)


def reference(x, out):
    return torch.cumsum(x.double(), 0)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]

    def fn(x, out):
        lib.kf_run(ptr(x), ptr(out), N)
        return out
    return fn
