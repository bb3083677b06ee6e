"""dot_templated: .cu programs with templated block sizes; extern "C" int dot(x, y, out, n)
writes sum(x[i] * y[i]) over two float32 vectors of n elements into out[0]."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 16 * 1024 * 1024 + 5
# the sum is ~4e3 in size; one float atomicAdd per element rounds 16M times
TOL = {"rtol": 1e-4, "atol": 4.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g), torch.randn(N, device="cuda", generator=g))


def build(path):
    lib = nvcc_library(path)
    lib.dot.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong]
    lib.dot.restype = ctypes.c_int

    def fn(x, y):
        out = torch.empty(1, device=x.device, dtype=torch.float32)
        rc = lib.dot(ptr(x), ptr(y), ptr(out), x.numel())
        if rc != 0:
            raise RuntimeError(f"dot returned CUDA error {rc}")
        return out

    return fn


def reference(x, y):
    return (x.double() * y.double()).sum().reshape(1)
