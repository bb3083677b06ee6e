"""Adapter of p25-mamba-rmsnorm (kforecast's own code): Mamba's fused residual add + RMSNorm,
rms_norm_fn(x, weight, None, residual=residual, prenorm=True, residual_in_fp32=True, eps=1e-5)
as Mamba's blocks call it, x bf16 16384 x 2560, residual float32, weight bf16; returns
(y bf16, new residual float32). Called under no_grad. The set's `_vendor/` goes on sys.path."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p25common as kf  # noqa: E402
from progbuild import load_program  # noqa: E402

ROWS, D = 16384, 2560
EPS = 1e-5
TOL = {"rtol": 2e-2, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(ROWS, D, device="cuda", generator=g).to(torch.bfloat16)
    residual = torch.randn(ROWS, D, device="cuda", generator=g)
    weight = (1 + 0.2 * torch.randn(D, device="cuda", generator=g)).to(torch.bfloat16)
    return (x, residual, weight)


def reference(x, residual, weight):
    r = x.double() + residual.double()
    y = r * torch.rsqrt((r * r).mean(-1, keepdim=True) + EPS) * weight.double()
    return y, r


def build(path):
    kf.vendor()
    mod = load_program(path)
    f = mod.rms_norm_fn

    def fn(x, residual, weight):
        with torch.no_grad():
            return f(x, weight, None, residual=residual, prenorm=True, residual_in_fp32=True, eps=EPS)
    return fn
