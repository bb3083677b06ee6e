"""Adapter of the p23-trident-layer-norm family (kforecast's own code): trident's
LayerNorm operation's host launcher (`__forward`) at each commit, over the last dimension
of a 16384 x 4096 float32 matrix (2^26 elements) with weight and bias."""
import inspect
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

ROWS, COLS, EPS = 16384, 4096, 1e-5
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(ROWS, COLS, device="cuda", generator=g)
    w = 1 + 0.1 * torch.randn(COLS, device="cuda", generator=g)
    b = 0.1 * torch.randn(COLS, device="cuda", generator=g)
    return (x, w, b)


def reference(x, w, b):
    return torch.nn.functional.layer_norm(x.double(), (COLS,), w.double(), b.double(), EPS)


def build(path):
    fwd = kf.load_module(path).LayerNorm._LayerNorm__forward
    if len(inspect.signature(fwd).parameters) == 7:
        # the first commits' launcher also takes mean and std outputs; their functional
        # layer_norm passes None for both
        return lambda x, w, b: kf.first(fwd(x, (COLS,), w, b, EPS, None, None))
    return lambda x, w, b: kf.first(fwd(x, (COLS,), w, b, EPS))
