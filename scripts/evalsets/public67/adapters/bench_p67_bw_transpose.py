"""Adapter of p67-bw-transpose (kforecast's own code): each version's `extern "C" void kf_run(a, b,
row, col)` (main()'s grid set-up and one kernel's launch line) on an 8192 x 8192 fp32 matrix of
uniform [0, 1) values (main(): 1 << 15 squared, curand uniform); output: the transpose
(8192, 8192), exact."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

ROW = 8192
COL = 8192
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(ROW, COL, device="cuda", dtype=torch.float32, generator=g),)


def reference(a):
    return a.double().t().contiguous()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-lcurand"))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 2 + [ctypes.c_uint] * 2

    def run(a):
        b = torch.empty(COL, ROW, device="cuda", dtype=torch.float32)
        fn(ptr(a), ptr(b), ROW, COL)
        return b
    return run
