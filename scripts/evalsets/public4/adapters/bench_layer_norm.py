"""Adapter of p4-layer-norm (kforecast's own code): eager torch, F.layer_norm, attorch's
Triton LayerNorm layer (its autograd Function, which its forward calls)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import _p4common as p4  # noqa: E402

ROWS, COLS = 16384, 4096
EPS = 1e-5
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = 2 * torch.randn(ROWS, COLS, device="cuda", generator=g) + 0.5
    w = 1 + 0.1 * torch.randn(COLS, device="cuda", generator=g)
    b = 0.1 * torch.randn(COLS, device="cuda", generator=g)
    return (x, w, b)


def reference(x, w, b):
    return torch.nn.functional.layer_norm(x.double(), (COLS,), w.double(), b.double(), EPS)


def build(path):
    if os.path.basename(path).startswith("attorch_"):
        m = p4.load_attorch(path)
        m.LayerNorm(COLS, eps=EPS)
        return lambda x, w, b: m.LayerNormAutoGrad.apply(x, w, b, EPS, True)
    m = p4.load_py(path)
    return lambda x, w, b: m.layer_norm(x, w, b, EPS)
