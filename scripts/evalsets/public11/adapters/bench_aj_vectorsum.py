"""Adapter of p11-aj-vectorsum (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p11common as p11  # noqa: E402

N = 1 << 26
TOL = {"rtol": 1e-4, "atol": 0.0}


def make_inputs(seed):
    x = torch.rand(N, device="cuda", generator=p11.gen(seed))
    out = torch.full((1,), float("nan"), device="cuda")
    return (x, out)


def reference(x, out):
    return x.double().sum().reshape(1)


def build(path):
    return p11.gpumode(path)
