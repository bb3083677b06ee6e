"""Adapter of p59-xd-hgemm (kforecast's own code): fp16 C = A B with M = N = K = 4096
(main.cu's default), A M x K row-major, B stored N x K (K x N column-major, as the kernels
read it), C M x N row-major. kf_run(A, B, C, M, N, K) is run_kernel()'s call of one launcher
with alpha = 1, beta = 0. Inputs are multiples of 1/4 in [-1/2, 1/2]: every product is a
multiple of 1/16 and every partial sum stays far below 128, so half accumulation is exact
and all versions agree with the float64 reference exactly."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = K = 4096
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.randint(-2, 3, (M, K), device="cuda", generator=g).to(torch.float16) / 4)
    b = (torch.randint(-2, 3, (N, K), device="cuda", generator=g).to(torch.float16) / 4)
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    return (a, b, c)


def reference(a, b, c):
    return a.double() @ b.double().t()


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                           ctypes.c_int, ctypes.c_int, ctypes.c_int]

    def fn(a, b, c):
        lib.kf_run(ptr(a), ptr(b), ptr(c), M, N, K)
        return c
    return fn
