"""Adapter of the "pc-" float reduce ladders (kforecast's own code).

Each version is a tutorial .cu program with a `kf_run` entry point that runs main()'s launch
of its kernel and returns how many per-block partial sums it wrote (1 where the program
reduces to one sum). The partial sums are added here in float64 (one small torch kernel,
the same for every version), so versions with different block counts compare."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1 << 25  # the programs' own N (32 * 1024 * 1024), 128 MB
TOL = {"rtol": 1e-5, "atol": 1.0}  # float32 partial sums of ~1.7e7 in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g),)


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    lib = nvcc_library(path)
    run = lib.kf_run
    run.restype = ctypes.c_longlong
    run.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_longlong] * 2

    def fn(x):
        out = torch.empty(x.numel() // 32, device=x.device, dtype=x.dtype)
        scratch = torch.empty(1 << 16, device=x.device, dtype=x.dtype)
        count = run(ptr(x), None, ptr(out), ptr(scratch), x.numel(), 0)
        if count < 0:
            raise RuntimeError(f"{path}: CUDA error {-count}")
        return out[:count].sum(dtype=torch.float64).reshape(1)

    return fn
