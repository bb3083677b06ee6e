"""Adapter of p13-kb-softmax (kforecast's own code): KernelBench level1 23, row softmax."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p13common as kf  # noqa: E402

ROWS, COLS = 4096, 16384
TOL = {"rtol": 2e-3, "atol": 1e-8}


def make_inputs(seed):
    return (torch.rand(ROWS, COLS, device="cuda", generator=kf.generator(seed)),)


def reference(x):
    return torch.softmax(x.double(), dim=1)


def build(path):
    return kf.kernelbench_model(path)
