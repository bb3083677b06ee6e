"""Adapter of p22-gx-rmsnorm (kforecast's own code): y = x / sqrt(mean(x^2) + eps) over one
vector of 32 Mi floats (the source's benchmark size, eps 1). v0's temporaries (squares,
an atomically summed total, the rms) are the adapter's; the total is zeroed every call."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 32 * 1024 * 1024
EPS = 1.0
TOL = {"rtol": 1e-4, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, device="cuda", generator=g)  # the source's init_random: uniform [0, 1)
    y = torch.empty(N, device="cuda")
    squares = torch.empty(N, device="cuda")
    total = torch.empty(1, device="cuda")
    rms = torch.empty(1, device="cuda")
    return (x, y, squares, total, rms)


def reference(x, y, squares, total, rms):
    xd = x.double()
    return xd / torch.sqrt((xd * xd).mean() + EPS)


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++20", "--expt-relaxed-constexpr"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_float] + [ctypes.c_void_p] * 3

    def fn(x, y, squares, total, rms):
        total.zero_()
        lib.kf_run(ptr(x), ptr(y), N, EPS, ptr(squares), ptr(total), ptr(rms))
        return y
    return fn
