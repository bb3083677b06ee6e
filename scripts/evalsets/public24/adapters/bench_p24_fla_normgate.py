"""Adapter of p24-fla-normgate (kforecast's own code): y = rmsnorm(x) * weight * silu(g)
(eps 1e-5, no bias) over rows of bf16 x and g of shape (2^19, 128), float32 weight; each
version called through the module's function at its commit (`rms_norm_fn(x, g, w, None,
eps=...)` at the first, `rms_norm_gated(x, g, w, None, activation='swish', eps=...)` later);
the reference version is an eager torch program of ours. The set's `_vendor/` (fla/utils.py
per commit) goes on sys.path."""
import os
import sys

import torch
from progbuild import load_program

ROWS, D = 1 << 19, 128
EPS = 1e-5
TOL = {"rtol": 2e-2, "atol": 2e-2}
_VENDOR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor")


def make_inputs(seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(ROWS, D, device="cuda", generator=gen).to(torch.bfloat16)
    g = torch.randn(ROWS, D, device="cuda", generator=gen).to(torch.bfloat16)
    w = 1 + 0.1 * torch.randn(D, device="cuda", generator=gen)
    return (x, g, w)


def reference(x, g, w):
    x, g, w = x.double(), g.double(), w.double()
    y = x / torch.sqrt((x * x).mean(-1, keepdim=True) + EPS) * w
    return y * g * torch.sigmoid(g)


def build(path):
    if _VENDOR not in sys.path:
        sys.path.insert(0, _VENDOR)
    mod = load_program(path)
    if hasattr(mod, "kf_entry"):
        return lambda x, g, w: mod.kf_entry(x, g, w, EPS)
    if hasattr(mod, "rms_norm_gated"):
        f = mod.rms_norm_gated

        def fn(x, g, w):
            y = f(x, g, w, None, activation="swish", eps=EPS)
            return y[0] if isinstance(y, (tuple, list)) else y
        return fn
    f = mod.rms_norm_fn

    def fn(x, g, w):
        y = f(x, g, w, None, eps=EPS)
        return y[0] if isinstance(y, (tuple, list)) else y
    return fn
