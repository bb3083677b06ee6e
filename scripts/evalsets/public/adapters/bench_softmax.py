"""Adapter of the softmax family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

ROWS, COLS = 16384, 16384
TOL = {"rtol": 1e-3, "atol": 1e-6}

ENTRIES = {
    "kernelbench_23_Softmax.py": lambda m: kf.kernelbench_model(m),
    "liger_softmax.py": lambda m: m.LigerSoftmaxFunction.apply,
    "flaggems_softmax.py": lambda m: (lambda x: m.softmax(x, -1)),
}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (4 * torch.randn(ROWS, COLS, device="cuda", generator=g),)


def build(path):
    f = kf.build_entry(path, ENTRIES)
    return lambda x: kf.first(f(x))
