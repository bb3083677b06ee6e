"""Adapter of p26-bb-layernorm (kforecast's own code): LayerNorm(x + bias + residual) * gamma +
beta over rows of 1024 halves, 65536 rows (the source's test() size at its first two commits),
eps 1e-6, float statistics; the mean and inverse-variance buffers are the caller's."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

ROWS, COLS = 65536, 1024
EPS = 1e-6
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(ROWS, COLS, generator=g, device="cuda").to(torch.float16)
    res = torch.randn(ROWS, COLS, generator=g, device="cuda").to(torch.float16)
    bias = (0.1 * torch.randn(COLS, generator=g, device="cuda")).to(torch.float16)
    gamma = (1 + 0.1 * torch.randn(COLS, generator=g, device="cuda")).to(torch.float16)
    beta = (0.1 * torch.randn(COLS, generator=g, device="cuda")).to(torch.float16)
    return (x, bias, res, gamma, beta)


def reference(x, bias, res, gamma, beta):
    s = x.double() + res.double() + bias.double()
    mean = s.mean(dim=1, keepdim=True)
    var = ((s - mean) ** 2).mean(dim=1, keepdim=True)
    return (s - mean) / torch.sqrt(var + EPS) * gamma.double() + beta.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = ctypes.c_int
    lib.kf_run.argtypes = [ctypes.c_void_p] * 8 + [ctypes.c_int32, ctypes.c_int32]

    def fn(x, bias, res, gamma, beta):
        out = torch.empty_like(x)
        mean = torch.empty(ROWS, device="cuda", dtype=torch.float32)
        var = torch.empty(ROWS, device="cuda", dtype=torch.float32)
        err = lib.kf_run(ptr(x), ptr(bias), ptr(res), ptr(out), ptr(gamma), ptr(beta), ptr(mean), ptr(var),
                         ROWS, COLS)
        if err != 0:
            raise RuntimeError(f"DispatchLayerNorm returned cudaError {err}")
        return out
    return fn
