"""Adapter of p24-cy-sgemm (kforecast's own code): C = alpha*A@B + beta*C in float32,
M = N = K = 4096, alpha = beta = 1 (sgemm.cu's main()), inputs uniform [0, 1) as the source's
random_matrix draws them. kf_run calls the version's test_mySgemm_vN() launcher, which
updates C in place; the harness gives every check run fresh copies of the inputs."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 4096
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    A = torch.rand(N, N, device="cuda", generator=g)
    B = torch.rand(N, N, device="cuda", generator=g)
    C = torch.rand(N, N, device="cuda", generator=g)
    return (A, B, C)


def reference(A, B, C):
    return A.double() @ B.double() + C.double()


def build(path):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                           ctypes.c_int, ctypes.c_float, ctypes.c_float]

    def fn(A, B, C):
        lib.kf_run(ptr(A), ptr(B), ptr(C), N, N, N, 1.0, 1.0)
        return C
    return fn
