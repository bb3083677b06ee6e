"""Adapter of p54-tt-reduce (kforecast's own code): integer sum of 2^24 ints in [0, 255].
As main() does before each kernel, the input is copied afresh into the device buffer the
kernel reduces (several kernels reduce in place); kf_run(idata, odata, size) launches the
kernel, synchronises, copies the block sums to the host, adds them there and returns the
sum (int arithmetic, wrapping like the source's). The comparison is exact."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 24
BLOCKS = N // 1024
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    data = torch.randint(0, 256, (N,), device="cuda", generator=g, dtype=torch.int32)
    work = torch.empty_like(data)
    partial = torch.empty(BLOCKS, device="cuda", dtype=torch.int32)
    return (data, work, partial)


def reference(data, work, partial):
    s = int(data.long().sum())
    s = (s + 2**31) % 2**32 - 2**31
    return torch.tensor([s], dtype=torch.int32)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = ctypes.c_int
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

    def fn(data, work, partial):
        work.copy_(data)
        s = lib.kf_run(ptr(work), ptr(partial), N)
        return torch.tensor([s], dtype=torch.int32)
    return fn
