"""Adapter of p30-cy-relu (kforecast's own code): ReLU of 32 * 1024 * 1024 floats from a
standard normal; kf_run(input, output) holds main()'s grid lines and launch."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 32 * 1024 * 1024
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(N, device="cuda", generator=g)
    out = torch.empty(N, device="cuda")
    return (x, out)


def reference(x, out):
    return torch.clamp_min(x.double(), 0)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p]

    def fn(x, out):
        lib.kf_run(ptr(x), ptr(out))
        return out
    return fn
