"""Adapter of p67-jp-reduce (kforecast's own code): each version's `extern "C" void kf_run(d_in,
d_out, N)` (the launcher's grid set-up and one kernel's launch line) on N = 1 << 25 fp32 values
in [0, 1) (initMatrix's min 0, max 1); output: the N / 1024 block partial sums the launcher copies
back, compared with float64 sums of each 1024-element block."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 25
BLOCK = 1024
TOL = {"rtol": 1e-4, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", dtype=torch.float32, generator=g),)


def reference(x):
    return x.double().view(N // BLOCK, BLOCK).sum(dim=1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 2 + [ctypes.c_int]

    def run(x):
        out = torch.empty(N // BLOCK, device="cuda", dtype=torch.float32)
        fn(ptr(x), ptr(out), N)
        return out
    return run
