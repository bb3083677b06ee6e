"""Adapter of p24-zg-sgemm (kforecast's own code): C = A@B in float32, M = N = K = 4096,
inputs uniform [1, 10) as the source's utils.cpp draws them. main.cpp zeroes C before each
call (its naive step accumulates into C); fn does the same, then kf_run calls the step."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 4096
TOL = {"rtol": 1e-3, "atol": 1e-1}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    A = torch.rand(N, N, device="cuda", generator=g) * 9 + 1
    B = torch.rand(N, N, device="cuda", generator=g) * 9 + 1
    C = torch.empty(N, N, device="cuda")
    return (A, B, C)


def reference(A, B, C):
    return A.double() @ B.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3

    def fn(A, B, C):
        C.zero_()
        lib.kf_run(ptr(A), ptr(B), ptr(C), N, N, N)
        return C
    return fn
