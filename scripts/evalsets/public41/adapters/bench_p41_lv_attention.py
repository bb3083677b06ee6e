"""Adapter of p41-lv-attention (kforecast's own code): softmax(Q K^T / sqrt(d)) V with Q, K, V
4096 x 128 float32, values uniform in [-1, 1] (tests/test_attention.cu's M = N = 4096,
d = 128), through each version's kf_run (the test's call of the step's launcher)."""
import ctypes
import math

import torch
from progbuild import nvcc_library, ptr

M = N = 4096
D = 128
TOL = {"rtol": 1e-3, "atol": 2e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.rand(M, D, device="cuda", generator=g) * 2 - 1
    k = torch.rand(N, D, device="cuda", generator=g) * 2 - 1
    v = torch.rand(N, D, device="cuda", generator=g) * 2 - 1
    out = torch.empty(M, D, device="cuda", dtype=torch.float32)
    return (q, k, v, out)


def reference(q, k, v, out):
    q, k, v = q.double(), k.double(), v.double()
    return torch.softmax(q @ k.T / math.sqrt(D), dim=1) @ v


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_int] * 3

    def fn(q, k, v, out):
        lib.kf_run(ptr(q), ptr(k), ptr(v), ptr(out), M, N, D)
        return out
    return fn
