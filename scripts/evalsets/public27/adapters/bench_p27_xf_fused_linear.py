"""Adapter of p27-xf-fused-linear (kforecast's own code): xformers' fused_matmul(x, weight, bias)
(Triton GEMM + bias, each version's default activation: none), x fp16 4 x 1024 x 4096, weight
fp16 4096 x 4096 (out x in), bias fp16 4096; returns the output (4 x 1024 x 4096)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p27common as kf  # noqa: E402

B, S, K, N = 4, 1024, 4096, 4096
TOL = {"rtol": 2e-2, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(B, S, K, device="cuda", generator=g).to(torch.float16)
    w = (torch.randn(N, K, device="cuda", generator=g) / K ** 0.5).to(torch.float16)
    b = (0.1 * torch.randn(N, device="cuda", generator=g)).to(torch.float16)
    return (x, w, b)


def reference(x, w, b):
    return x.double() @ w.double().t() + b.double()


def build(path):
    f = kf.load(path).fused_matmul

    def fn(x, w, b):
        with torch.no_grad():
            out = f(x, w, b)
        return out[0] if isinstance(out, (tuple, list)) else out
    return fn
