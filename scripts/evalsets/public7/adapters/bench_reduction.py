"""Adapter of set (b7)'s p7-reduction family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p7common as p7  # noqa: E402


N = 100_000_000
TOL = {"rtol": 1e-4, "atol": 50.0}  # a float32 sum of 1e8 values in [-1000, 1000) in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g) * 2000.0 - 1000.0,)


def reference(x):
    return x.double().sum().reshape(-1)


def build(path):
    f = p7.build(path, "torch_reduction", "reduction")
    return lambda x: f(x).reshape(-1)[:1]
