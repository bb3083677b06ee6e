"""Adapter of p59-sd-transpose (kforecast's own code): fp32 out-of-place transpose of an
8192 x 8192 matrix. kf_run(input, output, rows, cols) is Transpose<float>::run()'s
impl_->launchKernel() with one strategy class. The comparison is exact."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

R = C = 8192
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn((R, C), device="cuda", generator=g)
    y = torch.empty((C, R), device="cuda")
    return (x, y)


def reference(x, y):
    return x.double().t().contiguous()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint]

    def fn(x, y):
        lib.kf_run(ptr(x), ptr(y), R, C)
        return y
    return fn
