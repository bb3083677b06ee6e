"""Adapter of p30-cy-reduce (kforecast's own code): sum of 32 * 1024 * 1024 floats uniform
in [0, 1); kf_run(input, partials) launches the step and returns the number of per-block
partial sums it wrote, which the adapter adds in float64 (the source adds them on the host)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 32 * 1024 * 1024
TOL = {"rtol": 1e-4, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, device="cuda", generator=g)
    partials = torch.empty(N // 256, device="cuda")
    return (x, partials)


def reference(x, partials):
    return x.double().sum().reshape(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = ctypes.c_int
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p]

    def fn(x, partials):
        k = lib.kf_run(ptr(x), ptr(partials))
        return partials[:k].double().sum().reshape(1)
    return fn
