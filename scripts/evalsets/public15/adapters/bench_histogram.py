"""Adapter of family p15-histogram (kforecast's own code): LeetGPU challenge medium/13_histogramming."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p15common as p15  # noqa: E402

N, BINS = 50_000_000, 256  # the challenge's performance size
TOL = {"rtol": 0.0, "atol": 0.0}  # counts: exact
OUTPUTS = (1,)


def make_inputs(seed):
    x = torch.randint(0, BINS, (N,), device="cuda", generator=p15.gen(seed), dtype=torch.int32)
    return (x, torch.zeros(BINS, device="cuda", dtype=torch.int32), N, BINS)


def build(path):
    return p15.build(path, OUTPUTS)
