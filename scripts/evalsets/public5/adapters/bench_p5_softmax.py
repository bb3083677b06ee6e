"""Adapter of p5-softmax (kforecast's own code): row softmax, float32 16384 x 4096."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p5common as kf  # noqa: E402

M, N = 16384, 4096
TOL = {"rtol": 1e-3, "atol": 1e-7}


def make_inputs(seed):
    return (4 * torch.randn(M, N, device="cuda", generator=kf.generator(seed)),)


def reference(x):
    return torch.softmax(x.double(), dim=-1)


def build(path):
    m = kf.load_python(path)
    if hasattr(m, "triton_softmax"):
        return lambda x: m.triton_softmax.apply(x)
    return m.softmax
