"""Adapter of p71-rs-sort (kforecast's own code): each version's `extern "C" void kf_run(d_input,
N)` (a call of the file's host sort function, which sorts in place) on a copy of N = 10000000
uniform 31-bit unsigned keys (main(): N = 10000000 rand() keys). Output: the sorted keys (as
int64), exact. The copy is inside the timed call for every version (40 MB, device to device)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 10000000
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 2**31 - 1, (N,), device="cuda", dtype=torch.int32, generator=g),)


def reference(keys):
    return torch.sort(keys.long()).values


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p, ctypes.c_int]

    def run(keys):
        d = keys.clone()
        fn(ptr(d), N)
        return d.long()
    return run
