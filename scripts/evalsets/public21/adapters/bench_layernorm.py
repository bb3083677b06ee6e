"""Adapter of the p21-layernorm family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import _p21common as kf  # noqa: E402

ROWS, HIDDEN, EPS = 16384, 8192, 1e-5
TOL = {"rtol": 1e-3, "atol": 1e-3}

ENTRIES = {"torch_layer_norm.py": "layer_norm"}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(ROWS, HIDDEN, device="cuda", generator=g)
    w = 1 + 0.1 * torch.randn(HIDDEN, device="cuda", generator=g)
    b = 0.1 * torch.randn(HIDDEN, device="cuda", generator=g)
    return (x, w, b)


def reference(x, w, b):
    return F.layer_norm(x.double(), (HIDDEN,), w.double(), b.double(), EPS)


def build(path):
    func = getattr(kf.load(path), ENTRIES.get(os.path.basename(path), "layernorm"))
    return lambda x, w, b: func(x, w, b, EPS)
