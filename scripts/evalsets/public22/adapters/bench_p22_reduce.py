"""Adapter of p22-gx-reduce (kforecast's own code): float sum of 32 Mi floats.

kf_run(input, partials, n) launches the version's kernel (the source's launch lines) and
returns how many per-block partial sums it wrote; the source's host adds them up, here
torch does (the same small step for every version)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 32 * 1024 * 1024  # the source's reduce_vN_benchmark() count
TOL = {"rtol": 1e-4, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, device="cuda", generator=g)  # the source's init_random: uniform [0, 1)
    partials = torch.empty(N // 32 + 1, device="cuda")
    return (x, partials)


def reference(x, partials):
    return x.double().sum().reshape(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++20", "--expt-relaxed-constexpr"))
    lib.kf_run.restype = ctypes.c_int
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t]

    def fn(x, partials):
        blocks = lib.kf_run(ptr(x), ptr(partials), N)
        return partials[:blocks].double().sum().reshape(1)
    return fn
