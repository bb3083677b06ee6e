"""Adapter of p38-mp-histogram (kforecast's own code): 7-bin histogram (4 letters a bin) of
2^26 lowercase letters uniform over a-z (the source's benchmark draw), through each
version's kf_run (its host function's launch lines, which zero the counters first)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

LENGTH = 1 << 26
NUM_BINS = 7
BLOCK_SIZE = 512
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    data = (torch.randint(0, 26, (LENGTH,), device="cuda", generator=g) + ord("a")).to(torch.int8)
    blocks = (LENGTH + BLOCK_SIZE - 1) // BLOCK_SIZE
    histo = torch.empty(NUM_BINS * blocks, device="cuda", dtype=torch.int32)  # a block's bins each (Private)
    return (data, histo)


def reference(data, histo):
    pos = data.long() - ord("a")
    return torch.bincount(pos // 4, minlength=NUM_BINS).to(torch.float64)


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++20"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p]

    def fn(data, histo):
        lib.kf_run(ptr(data), LENGTH, ptr(histo))
        return histo[:NUM_BINS]
    return fn
