"""Adapter of p25-kb-relu (kforecast's own code): ReLU of x 4096 x 16384 float32 (KernelBench
level 1 problem 19, ModelNew() of each sample)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p25common as kf  # noqa: E402

B, D = 4096, 16384
TOL = {"rtol": 1e-5, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(B, D, device="cuda", generator=g),)


def reference(x):
    return torch.relu(x.double())


def build(path):
    model = kf.kernelbench_model(path)

    def fn(x):
        with torch.no_grad():
            return model(x)
    return fn
