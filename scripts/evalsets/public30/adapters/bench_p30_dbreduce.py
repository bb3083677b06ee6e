"""Adapter of p30-db-reduce (kforecast's own code): sum of 32,000,000 floats uniform in
[0, 1); kf_run(in, out, n) resets the one-element result and launches the step (its result
is a double for stage 1, a float otherwise: kf_out_bytes() says which)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 32000000
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, device="cuda", generator=g)
    out = torch.empty(1, device="cuda", dtype=torch.float64)  # room for a double or a float
    return (x, out)


def reference(x, out):
    return x.double().sum().reshape(1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_out_bytes.restype = ctypes.c_int
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    is_double = lib.kf_out_bytes() == 8

    def fn(x, out):
        lib.kf_run(ptr(x), ptr(out), N)
        if is_double:
            return out.clone()
        return out.view(torch.float32)[:1].double()
    return fn
