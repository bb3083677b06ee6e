"""Adapter of p54-xh-reduce (kforecast's own code): float sum of 2^24 floats.
kf_run(data, result, N) is one program's main() launch of one kernel (or its host function)
on device buffers; the one-float result is zeroed here before every call (main() zeroes it
before each launch). Values are random 0.0/1.0, so every summation order is exact."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 16 * 1024 * 1024
TOL = {"rtol": 0, "atol": 0.5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    data = torch.randint(0, 2, (N,), device="cuda", generator=g).to(torch.float32)
    result = torch.empty(1, device="cuda", dtype=torch.float32)
    return (data, result)


def reference(data, result):
    return data.double().sum().reshape(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

    def fn(data, result):
        result.zero_()
        lib.kf_run(ptr(data), ptr(result), N)
        return result
    return fn
