"""Adapter of p27-xf-sum-strided (kforecast's own code): sum_2d_dim_0(x), the sum of a 2-D tensor
over its first dim, x float32 2048 x 32768 (2^26; xformers' launcher uses its kernel up to 2048
rows)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p27common as kf  # noqa: E402

M, N = 2048, 32768
TOL = {"rtol": 1e-4, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g),)


def reference(x):
    return x.double().sum(dim=0)


def build(path):
    f = kf.load(path).sum_2d_dim_0

    def fn(x):
        return f(x)
    return fn
