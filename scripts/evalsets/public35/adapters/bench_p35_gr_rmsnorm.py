"""Adapter of p35-gr-rmsnorm (kforecast's own code): y = x * rsqrt(mean(x^2) + 1e-5) * w
over the rows of a 4096 x 4096 float32 matrix, x uniform in [-3, 3], w in [0.5, 1.5]
(the source's draws; epsilon is its Options default). v0's intermediate buffers come from
here (its main() allocates them once); the other versions ignore them."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

TOKENS, HIDDEN = 4096, 4096
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(TOKENS, HIDDEN, device="cuda", generator=g) * 6 - 3
    w = torch.rand(HIDDEN, device="cuda", generator=g) + 0.5
    out = torch.empty(TOKENS, HIDDEN, device="cuda")
    squared = torch.empty(TOKENS, HIDDEN, device="cuda")
    inverse_rms = torch.empty(TOKENS, device="cuda")
    normalized = torch.empty(TOKENS, HIDDEN, device="cuda")
    return (x, w, out, squared, inverse_rms, normalized)


def reference(x, w, out, squared, inverse_rms, normalized):
    xd = x.double()
    return xd * torch.rsqrt(xd.pow(2).mean(dim=-1, keepdim=True) + 1e-5) * w.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p] * 6 + [ctypes.c_int, ctypes.c_int]

    def fn(x, w, out, squared, inverse_rms, normalized):
        lib.kf_run(ptr(x), ptr(w), ptr(out), ptr(squared), ptr(inverse_rms), ptr(normalized),
                   TOKENS, HIDDEN)
        return out
    return fn
