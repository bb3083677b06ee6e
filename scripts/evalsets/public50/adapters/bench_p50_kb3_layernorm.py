"""Adapter of p50-kb3-layernorm (kforecast's own code): nn.LayerNorm((64, 256, 256)) of x
(16, 64, 256, 256) float32 (randn, as KernelBench-v3 problem 40's get_inputs; weight one and
bias zero, as every version initialises them; eps 1e-5)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p50common as kf  # noqa: E402

SHAPE = (16, 64, 256, 256)
NORMALIZED = (64, 256, 256)
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(*SHAPE, device="cuda", generator=g),)


def reference(x):
    return torch.nn.functional.layer_norm(x.double(), NORMALIZED, eps=1e-5)


def build(path):
    return kf.build(path, (NORMALIZED,))
