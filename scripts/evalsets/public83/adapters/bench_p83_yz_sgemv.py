"""Adapter of p83-yz-sgemv (kforecast's own code): each version's `extern "C" void kf_run(dA, dX,
dY, m, n)` (mysgemv_gpu.cu's launcher mysgemv_gpu_vN with lda = m, or test.cu main()'s
cublasSgemv call; alpha = beta = 1 as main() sets them) on a column-major fp32 A (m x n), x (n)
and y (m), m = n = 20480 (the README's sample run; 1.68 GB of A), values randn. A is held as the
row-major torch tensor of its transpose, a (n, m). y is updated in place, so each call runs on a
fresh copy of the input y. Output: y + A x, i.e. y + a.T @ x in torch terms."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

M = N = 20480
TOL = {"rtol": 1e-3, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, M, device="cuda", generator=g),
            torch.randn(N, device="cuda", generator=g),
            torch.randn(M, device="cuda", generator=g))


def reference(a, x, y):
    return y.double() + a.double().t() @ x.double()


def build(path):
    flags = ("-O3", "-lcublas") if "cublas" in path else ("-O3",)
    lib = nvcc_library(path, flags=flags)
    fn = lib.kf_run
    fn.restype = None
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int] * 2

    def run(a, x, y):
        out = y.clone()
        fn(ptr(a), ptr(x), ptr(out), M, N)
        return out
    return run
