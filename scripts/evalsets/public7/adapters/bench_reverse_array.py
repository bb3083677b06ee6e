"""Adapter of set (b7)'s p7-reverse-array family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p7common as p7  # noqa: E402


N = 100_000_000
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g),)


def reference(x):
    return x.double().flip(0)


def build(path):
    f = p7.build(path, "torch_reverse_array", "reverse_array")
    # the kernels reverse in place: every version works on a fresh copy (same cost for all)
    return lambda x: f(x.clone())
