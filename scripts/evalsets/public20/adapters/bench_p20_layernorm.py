"""Adapter of p20-layernorm-fwd (kforecast's own code): LayerNorm of x 16384x1024."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p20common as kf  # noqa: E402

B, D = 16384, 1024
EPS = 1e-5
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(B, D, device="cuda", generator=g)
    gamma = 1 + 0.1 * torch.randn(D, device="cuda", generator=g)
    beta = 0.1 * torch.randn(D, device="cuda", generator=g)
    return (x, gamma, beta, EPS)


def reference(x, gamma, beta, eps):
    return torch.nn.functional.layer_norm(x.double(), (x.shape[1],), gamma.double(), beta.double(), eps)


def build(path):
    f = kf.entry(kf.load_extension(path), ("layernorm_forward", "forward"))
    return lambda x, gamma, beta, eps: kf.first(f(x, gamma, beta, float(eps)))
