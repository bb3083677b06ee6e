"""Adapter of p53-enccs-mathfn (kforecast's own code): x^3 + 4 sin(y) over 2^24 float64
elements (torch.rand). Each version's KFORECAST kf_run writes the result into a fresh tensor
through numba views (a CUDA ufunc with out=, or a numba.cuda kernel with the course's launch)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p53common as kf  # noqa: E402

N = 1 << 24
TOL = {"rtol": 1e-12, "atol": 1e-12}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(N, device="cuda", dtype=torch.float64, generator=g)
    y = torch.rand(N, device="cuda", dtype=torch.float64, generator=g)
    return (x, y)


def reference(x, y):
    return x ** 3 + 4 * torch.sin(y)


def build(path):
    mod = kf.module(path, numba_cuda=True)

    def fn(x, y):
        out = torch.empty_like(x)
        mod.kf_run(kf.numba_view(x), kf.numba_view(y), kf.numba_view(out))
        return out

    return fn
