"""Adapter of p65-xs-reduce (kforecast's own code): each version's `extern "C" int kf_run(d_input,
d_output, num_elem)` (main()'s grid set-up and the launch line of one kernel, one partial sum a
block, returning how many) on 1 << 25 int32 values in [0, 100) (main() fills i % 100); the block
sums are added with torch (int64), as main() adds them on the host. Output: the sum (0-d), exact."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

NUM = 1 << 25
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 100, (NUM,), device="cuda", dtype=torch.int32, generator=g),)


def reference(x):
    return x.double().sum()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p] * 2 + [ctypes.c_int]

    def run(x):
        out = torch.empty(NUM // 128, device="cuda", dtype=torch.int32)
        nb = fn(ptr(x), ptr(out), NUM)
        return out[:nb].sum(dtype=torch.int64)
    return run
