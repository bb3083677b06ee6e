"""Adapter of p28-ab-bitonic (kforecast's own code): ascending sort of 2^24 ints in
[0, 1000) (the source's main() draws `rand() % 1000`). The programs sort in place, so the
input is copied into the work array before every call (the same copy for every version)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 24
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randint(0, 1000, (N,), device="cuda", generator=g, dtype=torch.int32)
    work = torch.empty(N, device="cuda", dtype=torch.int32)
    return (x, work)


def reference(x, work):
    return torch.sort(x)[0]


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_int]

    def fn(x, work):
        work.copy_(x)
        lib.kf_run(ptr(work), N)
        return work
    return fn
