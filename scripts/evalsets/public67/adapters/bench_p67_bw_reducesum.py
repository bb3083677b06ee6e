"""Adapter of p67-bw-reducesum (kforecast's own code): each version's `extern "C" void
kf_run(data, n, d_temp, d_sum)` (main()'s two launch lines for one kernel: block partials into
d_temp, then one block over them into d_sum) on n = 1 << 26 fp32 values in [0, 1) (main(): 1 << 30
curand values made positive); d_temp is 1024 floats (main()'s largest temp_size); output: the sum
(1,), compared with a float64 sum."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

NUM = 1 << 26
TOL = {"rtol": 1e-4, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(NUM, device="cuda", dtype=torch.float32, generator=g),)


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-lcurand"))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_void_p, ctypes.c_void_p]

    def run(x):
        temp = torch.empty(1024, device="cuda", dtype=torch.float32)
        out = torch.empty(1, device="cuda", dtype=torch.float32)
        fn(ptr(x), NUM, ptr(temp), ptr(out))
        return out
    return run
