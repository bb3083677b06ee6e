"""Adapter of p50-kb3-rmsnorm (kforecast's own code): x / sqrt(mean(x^2, dim=1) + 1e-5) of x
(16, 64, 256, 256) float32 (randn, as KernelBench-v3 problem 36's get_inputs; Model(64))."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p50common as kf  # noqa: E402

SHAPE = (16, 64, 256, 256)
FEATURES = 64
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(*SHAPE, device="cuda", generator=g),)


def reference(x):
    x = x.double()
    return x / torch.sqrt(torch.mean(x * x, dim=1, keepdim=True) + 1e-5)


def build(path):
    return kf.build(path, (FEATURES,))
