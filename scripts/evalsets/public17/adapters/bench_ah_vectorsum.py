"""Adapter of p17-ah-vectorsum (kforecast's own code): GPU MODE vectorsum, 2^26 floats."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p17common as kf  # noqa: E402

N = 1 << 26
TOL = {"rtol": 1e-4, "atol": 1.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g),)


def reference(data):
    return data.double().sum()


def build(path):
    ck = kf.custom_kernel(path)
    return lambda data: ck(data).reshape(())
