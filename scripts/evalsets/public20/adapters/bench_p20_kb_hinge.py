"""Adapter of p20-kb-hinge (kforecast's own code): hinge loss mean(clamp(1 - p*t, 0)) of
predictions and +-1 targets, 1-D tensors of 2^25 elements."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p20common as kf  # noqa: E402

N = 1 << 25
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    p = torch.randn(N, device="cuda", generator=g)
    t = torch.randint(0, 2, (N,), device="cuda", generator=g).float() * 2 - 1
    return (p, t)


def reference(p, t):
    return torch.clamp(1 - p.double() * t.double(), min=0).mean()


def build(path):
    model = kf.kernelbench_model(path)

    def fn(p, t):
        with torch.no_grad():
            return model(p, t).reshape(())

    return fn
