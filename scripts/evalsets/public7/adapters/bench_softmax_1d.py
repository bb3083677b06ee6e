"""Adapter of set (b7)'s p7-softmax-1d family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p7common as p7  # noqa: E402


N = 1 << 24
TOL = {"rtol": 1e-3, "atol": 1e-12}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.double(), 0)


def build(path):
    return p7.build(path, "torch_softmax", "softmax")
