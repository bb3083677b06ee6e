"""Adapter of p25-kb-sum (kforecast's own code): sum over dim 1 (keepdim) of x 16 x 4096 x 1024
float32 (KernelBench level 1 problem 47, ModelNew(1) of each sample)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p25common as kf  # noqa: E402

SHAPE = (16, 4096, 1024)
DIM = 1
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(SHAPE, device="cuda", generator=g),)


def reference(x):
    return x.double().sum(dim=DIM, keepdim=True)


def build(path):
    model = kf.kernelbench_model(path, (DIM,))

    def fn(x):
        with torch.no_grad():
            return model(x)
    return fn
