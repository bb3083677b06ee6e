"""Adapter of the p21-row-sum family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p21common as kf  # noqa: E402

ROWS, COLS = 4096, 32768
TOL = {"rtol": 1e-4, "atol": 1e-3}  # fp32 sums of 32768 bf16 values, in another order

ENTRIES = {"torch_row_sum.py": "row_sum"}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(ROWS, COLS, device="cuda", generator=g).to(torch.bfloat16),)


def reference(x):
    return x.double().sum(dim=-1)


def build(path):
    func = getattr(kf.load(path), ENTRIES.get(os.path.basename(path), "sum"))
    return lambda x: func(x)
