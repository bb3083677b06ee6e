"""reduce_sum: .cu programs with host code; extern "C" int reduce_sum_f32(x, out, n) writes the
sum of n float32 values to out[0]. Inputs are uniform in [0, 1) (no cancellation)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 26
TOL = {"rtol": 5e-5, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g),)


def build(path):
    lib = nvcc_library(path)

    def fn(x):
        out = torch.empty(1, device=x.device, dtype=torch.float32)
        rc = lib.reduce_sum_f32(ptr(x), ptr(out), ctypes.c_longlong(x.numel()))
        if rc != 0:
            raise RuntimeError(f"reduce_sum_f32 returned CUDA error {rc}")
        return out

    return fn


def reference(x):
    return x.double().sum().reshape(1)
