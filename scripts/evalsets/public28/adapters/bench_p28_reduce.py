"""Adapter of p28-sl-reduce (kforecast's own code): sum of 2^26 floats uniform in [0, 1).

kf_run(input, partials, n) runs the launch line of the source's reduce_gpu() and returns
how many per-block partial sums it wrote; the source's host adds them on the CPU, here
torch adds them in float64 (the same small step for every version). Steps 1 and 2 sum in
place: their input is overwritten (the harness gives each check a fresh copy)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 26
TOL = {"rtol": 1e-4, "atol": 1.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, device="cuda", generator=g)
    partials = torch.empty(N // 2048, device="cuda")
    return (x, partials)


def reference(x, partials):
    return x.double().sum().reshape(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = ctypes.c_uint
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint]

    def fn(x, partials):
        blocks = lib.kf_run(ptr(x), ptr(partials), N)
        return partials[:blocks].double().sum().reshape(1)
    return fn
