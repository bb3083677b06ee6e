"""Adapter of p5-kernl-layer-norm (kforecast's own code): LayerNorm forward, fp16
16384 x 4096, weight and bias, eps 1e-5; every version has a `kf_entry(x, w, b, eps)`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import p5common as kf  # noqa: E402

M, N = 16384, 4096
EPS = 1e-5
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = kf.generator(seed)
    x = torch.randn(M, N, device="cuda", generator=g).half()
    w = (1 + 0.1 * torch.randn(N, device="cuda", generator=g)).half()
    b = (0.1 * torch.randn(N, device="cuda", generator=g)).half()
    return (x, w, b)


def reference(x, w, b):
    return F.layer_norm(x.double(), (N,), w.double(), b.double(), EPS)


def build(path):
    entry = kf.load_python(path).kf_entry
    return lambda x, w, b: entry(x, w, b, EPS)
