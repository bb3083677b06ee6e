"""Adapter of the p19-opus-add family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p19common as kf  # noqa: E402

N = 1 << 26
TOL = {"rtol": 1e-5, "atol": 1e-5}


def make_inputs(seed):
    import torch

    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g), torch.randn(N, device="cuda", generator=g))


def reference(x, y):
    return x.double() + y.double()


def build(path):
    return kf.entry(path)
