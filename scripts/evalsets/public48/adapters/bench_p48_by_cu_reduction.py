"""Adapter of p48-by-cu-reduction (kforecast's own code): each version's kf_run (main()'s launch
lines for one --version, the output zeroed first as main() does) on 2^24 float32 values uniform in
[-1, 1), block 256 (main()'s defaults); a one-element output compared with the float64 sum."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N, BLOCK = 1 << 24, 256
TOL = {"rtol": 0.0, "atol": 4.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g) * 2 - 1,)


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = ctypes.c_int
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]

    def fn(x):
        out = torch.empty(1, device="cuda")
        err = lib.kf_run(ptr(x), ptr(out), N, BLOCK)
        if err:
            raise RuntimeError(f"kf_run: CUDA error {err}")
        return out
    return fn
