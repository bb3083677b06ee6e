"""Adapter of p40-rt-reduce (kforecast's own code): sum of 10^8 float32 values (k - 1000) / 1000,
k uniform in 0..2000 (the source's randomize_matrix), through each version's kf_run (its host
launcher as main() calls it; the sum comes back in a host float)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 100000000
BLOCK_SIZE = 128
TOL = {"rtol": 1e-3, "atol": 2.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    nums = (torch.randint(0, 2001, (N,), device="cuda", generator=g).to(torch.float32) - 1000) / 1000
    rd = torch.empty((N + BLOCK_SIZE - 1) // BLOCK_SIZE, device="cuda", dtype=torch.float32)
    dsum = torch.empty(1, device="cuda", dtype=torch.float32)
    return (nums, rd, dsum)


def reference(nums, rd, dsum):
    return nums.to(torch.float64).sum().reshape(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                           ctypes.POINTER(ctypes.c_float)]

    def fn(nums, rd, dsum):
        s = ctypes.c_float(0.0)
        lib.kf_run(ptr(nums), ptr(rd), ptr(dsum), N, ctypes.byref(s))
        return torch.tensor([s.value], dtype=torch.float32, device=nums.device)
    return fn
