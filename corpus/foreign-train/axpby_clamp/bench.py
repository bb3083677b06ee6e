"""axpby_clamp: .cu programs with host code; extern "C" int axpby_clamp(x, y, out, n, a, b, lo, hi)
computes out = clamp(a*x + b*y, lo, hi) over float32 vectors of n elements."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 64 * 1024 * 1024 + 3  # not a multiple of 4 or of a block: the tails matter
TOL = {"rtol": 1e-5, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(N, device="cuda", generator=g)
    y = torch.randn(N, device="cuda", generator=g)
    return (x, y, 1.5, -0.75, -2.0, 2.0)


def build(path):
    lib = nvcc_library(path)
    lib.axpby_clamp.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong,
                                ctypes.c_float, ctypes.c_float, ctypes.c_float, ctypes.c_float]
    lib.axpby_clamp.restype = ctypes.c_int

    def fn(x, y, a, b, lo, hi):
        out = torch.empty_like(x)
        rc = lib.axpby_clamp(ptr(x), ptr(y), ptr(out), x.numel(), a, b, lo, hi)
        if rc != 0:
            raise RuntimeError(f"axpby_clamp returned CUDA error {rc}")
        return out

    return fn


def reference(x, y, a, b, lo, hi):
    return (a * x.double() + b * y.double()).clamp(lo, hi)
