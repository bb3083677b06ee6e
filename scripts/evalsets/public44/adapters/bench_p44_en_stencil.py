"""Adapter of p44-en-stencil (kforecast's own code): 1-D 3-point stencil
out[i] = 0.25 in[i-1] + 0.5 in[i] + 0.25 in[i+1] (zero outside) over 2^24 float32 values uniform in
[-1, 1); each version's kf_run (main()'s launch lines) with one output buffer passed for both of
main()'s output names."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 24
TOL = {"rtol": 1e-5, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g) * 2 - 1,)


def reference(x):
    x = x.double()
    left = torch.nn.functional.pad(x[:-1], (1, 0))
    right = torch.nn.functional.pad(x[1:], (0, 1))
    return 0.25 * left + 0.5 * x + 0.25 * right


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

    def fn(x):
        out = torch.empty_like(x)
        lib.kf_run(ptr(x), ptr(out), ptr(out), N)
        return out
    return fn
