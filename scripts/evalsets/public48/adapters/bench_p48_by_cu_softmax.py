"""Adapter of p48-by-cu-softmax (kforecast's own code): each version's kf_run (main()'s launch
lines for one --version) on a float32 4096 x 4096 matrix uniform in [-2, 2), block 256 (main()'s
defaults); v1's row max / row sum scratch buffers are allocated here as main() allocates them."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M, N, BLOCK = 4096, 4096, 256
TOL = {"rtol": 1e-4, "atol": 1e-7}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(M, N, device="cuda", generator=g) * 4 - 2,)


def reference(x):
    return torch.softmax(x.double(), dim=1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = ctypes.c_int
    lib.kf_run.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_int] * 3

    def fn(x):
        out = torch.empty_like(x)
        row_max = torch.empty(M, device="cuda")
        row_sum = torch.empty(M, device="cuda")
        err = lib.kf_run(ptr(x), ptr(out), ptr(row_max), ptr(row_sum), M, N, BLOCK)
        if err:
            raise RuntimeError(f"kf_run: CUDA error {err}")
        return out
    return fn
