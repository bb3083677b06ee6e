"""Adapter of p27-xf-layernorm (kforecast's own code): xformers' Triton LayerNorm forward,
_LayerNorm.apply(x, weight, bias, eps) (the Triton path of layer_norm() for float32), x float32
16384 x 4096, weight/bias float32 4096, eps 1e-5. Called under no_grad."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p27common as kf  # noqa: E402

M, N = 16384, 4096
EPS = 1e-5
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = 2 * torch.randn(M, N, device="cuda", generator=g) + 0.5
    w = 1 + 0.2 * torch.randn(N, device="cuda", generator=g)
    b = 0.2 * torch.randn(N, device="cuda", generator=g)
    return (x, w, b)


def reference(x, w, b):
    x = x.double()
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + EPS) * w.double() + b.double()


def build(path):
    op = kf.load(path)._LayerNorm

    def fn(x, w, b):
        with torch.no_grad():
            return op.apply(x, w, b, EPS)
    return fn
