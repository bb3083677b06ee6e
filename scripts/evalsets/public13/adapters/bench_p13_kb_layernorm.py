"""Adapter of p13-kb-layernorm (kforecast's own code): KernelBench level1 40, LayerNorm over
the last three dimensions, at the problem's own size."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p13common as kf  # noqa: E402

BATCH, SHAPE = 16, (64, 256, 256)
TOL = {"rtol": 2e-3, "atol": 2e-3}


def make_inputs(seed):
    return (torch.randn(BATCH, *SHAPE, device="cuda", generator=kf.generator(seed)),)


def reference(x):
    return torch.nn.functional.layer_norm(x.double(), SHAPE, eps=1e-5)


def build(path):
    return kf.kernelbench_model(path, SHAPE)
