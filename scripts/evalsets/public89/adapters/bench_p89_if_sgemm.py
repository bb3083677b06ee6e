"""Adapter of p89-if-sgemm (kforecast's own code): each version's `extern "C" void kf_run(d_a,
d_b, d_c, M, N, K)` (main()'s block/grid set-up and testPerformance's launch line, or the file's
cublasSgemm call with alpha 1, beta 0) on row-major fp32 a (M x K), b (K x N), c (M x N),
M = N = 8192, K = 1024 (an entry of main()'s size lists), values uniform in [0, 1) as the file's
testError draws them (rand() / RAND_MAX). The kernels write every element of c without reading
it. Output: c = a b."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M, N, K = 8192, 8192, 1024
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(M, K, device="cuda", generator=g),
            torch.rand(K, N, device="cuda", generator=g))


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    flags = ("-O3", "-lcublas") if "cublas" in path else ("-O3",)
    lib = nvcc_library(path, flags=flags)
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3

    def run(a, b):
        c = torch.empty(M, N, device="cuda", dtype=torch.float32)
        fn(ptr(a), ptr(b), ptr(c), M, N, K)
        return c
    return run
