"""Adapter of p10-kbl-cosine-loss (kforecast's own code): KernelBench-style modules,
ModelNew()(predictions, targets) -> scalar loss."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p10common as c  # noqa: E402

INIT = []
SHAPE = (8192, 4096)  # the problem's batch 128 raised to 8192: 2^25 elements per input
TOL = {"rtol": 1e-2, "atol": 1e-2}  # KernelBench's own correctness tolerance


def make_inputs(seed):
    return c.randn_inputs(seed, SHAPE, 2)


def build(path):
    return c.kb_model(path, INIT)


def reference(predictions, targets):
    cos = torch.nn.functional.cosine_similarity(predictions.double(), targets.double(), dim=1)
    return torch.mean(1 - cos)
