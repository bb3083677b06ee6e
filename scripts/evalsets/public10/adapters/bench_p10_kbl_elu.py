"""Adapter of p10-kbl-elu (kforecast's own code): KernelBench-style modules, ModelNew(alpha)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p10common as c  # noqa: E402

INIT = [1.0]  # the problem's get_init_inputs(): alpha
SHAPE = (4096, 16384)  # KernelBench's 16 x 16384 raised to 2^26 elements
TOL = {"rtol": 1e-2, "atol": 1e-2}  # KernelBench's own correctness tolerance


def make_inputs(seed):
    return c.randn_inputs(seed, SHAPE)


def build(path):
    return c.kb_model(path, INIT)


def reference(x):
    return torch.nn.functional.elu(x.double(), alpha=INIT[0])
