"""Adapter of p13-tsvc-s000 (kforecast's own code): a[i] = b[i] + 1 over 2^24 floats."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p13common as kf  # noqa: E402

N = 1 << 24
TOL = {"rtol": 1e-5, "atol": 1e-5}


def make_inputs(seed):
    g = kf.generator(seed)
    return (torch.randn(N, device="cuda", generator=g), torch.randn(N, device="cuda", generator=g))


def reference(a, b):
    return b.double() + 1


def build(path):
    return kf.tsvc_function(path, "s000")
