"""Adapter of p13-kb-newgelu (kforecast's own code): KernelBench level1 88, minGPT's tanh GELU."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p13common as kf  # noqa: E402

ROWS, COLS = 8192, 8192
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    return (torch.randn(ROWS, COLS, device="cuda", generator=kf.generator(seed)),)


def reference(x):
    x = x.double()
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


def build(path):
    return kf.kernelbench_model(path)
