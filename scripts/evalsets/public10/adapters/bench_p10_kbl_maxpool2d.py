"""Adapter of p10-kbl-maxpool2d (kforecast's own code): KernelBench-style modules,
ModelNew(kernel_size, stride, padding, dilation)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p10common as c  # noqa: E402

INIT = [2, 2, 1, 3]  # the problem's get_init_inputs(): kernel_size, stride, padding, dilation
SHAPE = (64, 32, 128, 128)  # the problem's batch 16 raised to 64: 2^25 elements
TOL = {"rtol": 1e-2, "atol": 1e-2}  # KernelBench's own correctness tolerance


def make_inputs(seed):
    return c.randn_inputs(seed, SHAPE)


def build(path):
    return c.kb_model(path, INIT)


def reference(x):
    return torch.nn.functional.max_pool2d(x.double(), INIT[0], INIT[1], INIT[2], INIT[3])
