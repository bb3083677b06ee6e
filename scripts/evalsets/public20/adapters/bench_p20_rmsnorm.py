"""Adapter of p20-rmsnorm-fwd (kforecast's own code): RMSNorm of x 16384x1024."""
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
    return (x, gamma, EPS)


def reference(x, gamma, eps):
    xd = x.double()
    return xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + eps) * gamma.double()


def build(path):
    f = kf.entry(kf.load_extension(path), ("rmsnorm_forward", "forward"))
    return lambda x, gamma, eps: kf.first(f(x, gamma, float(eps)))
