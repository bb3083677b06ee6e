"""Adapter of p62-ld-reduce (kforecast's own code): each version's `extern "C" int kf_run(input,
output)` (the launch lines of the program's main(), one partial sum a block into output,
returning how many) on x = 32*1024*1024 fp32 values uniform in [0, 1); the block sums are added
with torch (fp32), as main() adds them on the host. Output: the sum (0-d)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 32 * 1024 * 1024
TOL = {"rtol": 1e-4, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g),)


def reference(x):
    return x.double().sum()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p] * 2

    def run(x):
        out = torch.empty(N // 256, device="cuda", dtype=torch.float32)
        nb = fn(ptr(x), ptr(out))
        return out[:nb].sum()
    return run
