"""Adapter of p79-qj-softmax (kforecast's own code): each version's `extern "C" void kf_run(A, m,
n)` (main.cpp's call of the file's in-place launcher `fused_softmax`) on a copy of an M x N fp32
matrix of values in [0, 1) (main.cpp's rand() / RAND_MAX); output: the matrix, softmaxed along
each row, compared with a float64 softmax. The copy is inside the timed call for every version
(64 MB, device to device)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = 4096
N = 4096
TOL = {"rtol": 1e-3, "atol": 1e-7}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(M, N, device="cuda", dtype=torch.float32, generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]

    def run(x):
        a = x.clone()
        fn(ptr(a), M, N)
        return a
    return run
