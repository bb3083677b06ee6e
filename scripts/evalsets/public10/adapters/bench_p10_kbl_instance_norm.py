"""Adapter of p10-kbl-instance-norm (kforecast's own code): KernelBench-style modules,
ModelNew(num_features)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p10common as c  # noqa: E402

INIT = [64]  # the problem's get_init_inputs(): features
SHAPE = (16, 64, 256, 256)  # the problem's size, 2^26 elements
TOL = {"rtol": 1e-2, "atol": 1e-2}  # KernelBench's own correctness tolerance


def make_inputs(seed):
    return c.randn_inputs(seed, SHAPE)


def build(path):
    return c.kb_model(path, INIT)


def reference(x):
    return torch.nn.functional.instance_norm(x.double(), eps=1e-5)
