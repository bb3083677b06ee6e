"""Adapter of p4-rms-norm (kforecast's own code): eager torch, F.rms_norm, attorch's
Triton RMSNorm layer (its autograd Function, which its forward calls, given the weight)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import _p4common as p4  # noqa: E402

ROWS, COLS = 16384, 4096
EPS = 1e-6
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(ROWS, COLS, device="cuda", generator=g)
    w = 1 + 0.1 * torch.randn(COLS, device="cuda", generator=g)
    return (x, w)


def reference(x, w):
    x = x.double()
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * w.double()


def build(path):
    if os.path.basename(path).startswith("attorch_"):
        m = p4.load_attorch(path)
        m.RMSNorm(COLS, eps=EPS)  # the layer builds; its forward is RMSNormAutoGrad.apply
        return lambda x, w: m.RMSNormAutoGrad.apply(x, w, EPS)
    m = p4.load_py(path)
    return lambda x, w: m.rms_norm(x, w, EPS)
