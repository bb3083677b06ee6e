"""Adapter of p50-kb3-softmax (kforecast's own code): torch.softmax(x, dim=1) of x 256 x 16384
float32, drawn as KernelBench-v3 problem 23's get_inputs draws it (randn)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p50common as kf  # noqa: E402

B, D = 256, 16384
TOL = {"rtol": 1e-3, "atol": 1e-7}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(B, D, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=1)


def build(path):
    return kf.build(path)
