"""Adapter of the p23-trident-group-norm family (kforecast's own code): trident's GroupNorm
operation's host launcher (`__forward`) at each commit, 32 groups over a 64 x 256 x 4096
float32 tensor (2^26 elements) with weight and bias, eps 1e-5."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

N, C, L, GROUPS, EPS = 64, 256, 4096, 32, 1e-5
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(N, C, L, device="cuda", generator=g)
    w = 1 + 0.1 * torch.randn(C, device="cuda", generator=g)
    b = 0.1 * torch.randn(C, device="cuda", generator=g)
    return (x, w, b)


def reference(x, w, b):
    return torch.nn.functional.group_norm(x.double(), GROUPS, w.double(), b.double(), EPS)


def build(path):
    fwd = kf.load_module(path).GroupNorm._GroupNorm__forward
    return lambda x, w, b: kf.first(fwd(x, GROUPS, w, b, EPS))
