"""Adapter of p53-enccs-matmul (kforecast's own code): C = A @ B of 1024 x 1024 float64
matrices (torch.rand). Each version's KFORECAST kf_run launches its numba.cuda kernel with the
course's grid formula on numba views of the tensors; C is a fresh tensor the kernel fills."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p53common as kf  # noqa: E402

N = 1024
TOL = {"rtol": 1e-9, "atol": 1e-9}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(N, N, device="cuda", dtype=torch.float64, generator=g)
    b = torch.rand(N, N, device="cuda", dtype=torch.float64, generator=g)
    return (a, b)


def reference(a, b):
    return a @ b


def build(path):
    mod = kf.module(path, numba_cuda=True)

    def fn(a, b):
        c = torch.empty(N, N, device="cuda", dtype=torch.float64)
        mod.kf_run(kf.numba_view(a), kf.numba_view(b), kf.numba_view(c))
        return c

    return fn
