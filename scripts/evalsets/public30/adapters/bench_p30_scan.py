"""Adapter of p30-te-scan-1m and p30-te-scan-151m (kforecast's own code): inclusive prefix sum
of N ints uniform in [0, 2] (the builder sets N per family), through kf_run(d_in, n, d_out,
workspace), which runs main.cu's table row of the version's algorithm after zeroing its
workspace (run_test()'s lines)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 1048576  # set by pub30.py: the family's size
TOL = {"rtol": 0, "atol": 0}
# the largest workspace any algorithm asks for: single-pass, 1 + 2 * blocks ints
WORKSPACE_INTS = 1 + 2 * (N // (1024 * 11) + 1) + 1024


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randint(0, 3, (N,), device="cuda", generator=g, dtype=torch.int32)
    out = torch.empty(N, device="cuda", dtype=torch.int32)
    ws = torch.empty(WORKSPACE_INTS, device="cuda", dtype=torch.int32)
    return (x, out, ws)


def reference(x, out, ws):
    return torch.cumsum(x.double(), 0)


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17", "-Xcompiler", "-fopenmp",
                                    "-Xlinker", "--no-as-needed", "-lgomp"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]

    def fn(x, out, ws):
        lib.kf_run(ptr(x), N, ptr(out), ptr(ws))
        return out
    return fn
