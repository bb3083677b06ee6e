"""Adapter of p20-rbf-fwd (kforecast's own code): RBF kernel matrix of X, Y (4096x64 each)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p20common as kf  # noqa: E402

N = M = 4096
D = 64
GAMMA = 1.0 / 64.0
TOL = {"rtol": 1e-3, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(N, D, device="cuda", generator=g)
    y = torch.randn(M, D, device="cuda", generator=g)
    return (x, y, GAMMA)


def reference(x, y, gamma):
    d2 = torch.cdist(x.double(), y.double()) ** 2
    return torch.exp(-gamma * d2)


def build(path):
    f = kf.entry(kf.load_extension(path), ("rbf_forward", "forward"))
    return lambda x, y, gamma: kf.first(f(x, y, float(gamma)))
