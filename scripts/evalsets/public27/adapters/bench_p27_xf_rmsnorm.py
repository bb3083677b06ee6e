"""Adapter of p27-xf-rmsnorm (kforecast's own code): RMSNorm forward, x float32 16384 x 4096,
weight float32 4096, eps 1e-6: xformers' _RMSNorm.apply(x, weight, eps) where the version has
it, else the version's rms_norm(x, weight, eps) (the eager reference of ours). Under no_grad."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p27common as kf  # noqa: E402

M, N = 16384, 4096
EPS = 1e-6
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = 2 * torch.randn(M, N, device="cuda", generator=g)
    w = 1 + 0.2 * torch.randn(N, device="cuda", generator=g)
    return (x, w)


def reference(x, w):
    x = x.double()
    return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + EPS) * w.double()


def build(path):
    mod = kf.load(path)
    op = getattr(mod, "_RMSNorm", None)
    f = (lambda x, w: op.apply(x, w, EPS)) if op is not None else (lambda x, w: mod.rms_norm(x, w, EPS))

    def fn(x, w):
        with torch.no_grad():
            return f(x, w)
    return fn
