"""Adapter of family p15-transpose (kforecast's own code): LeetGPU challenge easy/3_matrix_transpose."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p15common as p15  # noqa: E402

ROWS, COLS = 7000, 6000  # the challenge's performance size
TOL = {"rtol": 0.0, "atol": 0.0}  # a copy: exact
OUTPUTS = (1,)


def make_inputs(seed):
    x = torch.empty(ROWS, COLS, device="cuda").uniform_(-10.0, 10.0, generator=p15.gen(seed))
    return (x, torch.zeros(COLS, ROWS, device="cuda"), ROWS, COLS)


def reference(x, out, rows, cols):
    return x.double().t()


def build(path):
    return p15.build(path, OUTPUTS)
