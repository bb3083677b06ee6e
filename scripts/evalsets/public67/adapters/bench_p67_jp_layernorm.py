"""Adapter of p67-jp-layernorm (kforecast's own code): each version's `extern "C" void kf_run(d_a,
d_o, gamma, beta, length, stride)` (the launcher's block/grid set-up and one kernel's launch
line) on 4096 rows of 4096 fp32 values in [0, 1) (layernorm.cpp's main(): size = width * width,
initMatrix's min 0, max 1), scalar gamma = beta = 0.5 as main() sets them; output (4096, 4096),
compared with a float64 row LayerNorm (population variance, eps 1e-5)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

W = 4096
ROWS = 4096
GAMMA = 0.5
BETA = 0.5
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(ROWS, W, device="cuda", dtype=torch.float32, generator=g),)


def reference(x):
    x = x.double()
    m = x.mean(dim=1, keepdim=True)
    v = ((x - m) ** 2).mean(dim=1, keepdim=True)
    return (x - m) / torch.sqrt(v + 1e-5) * GAMMA + BETA


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 2 + [ctypes.c_float] * 2 + [ctypes.c_int] * 2

    def run(x):
        out = torch.empty(ROWS, W, device="cuda", dtype=torch.float32)
        fn(ptr(x), ptr(out), GAMMA, BETA, ROWS * W, W)
        return out
    return run
