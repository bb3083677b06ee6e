"""Adapter of pm-triton-softmax (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubmix"))
import torch  # noqa: E402

import pm_common as pm  # noqa: E402

M, N = 4096, 8192
TOL = {"rtol": 1e-3, "atol": 1e-7}

ENTRIES = {"naive_softmax.py": "naive_softmax", "torch_softmax.py": "softmax", "triton_softmax.py": "softmax"}


def make_inputs(seed):
    return (torch.randn(M, N, device="cuda", generator=pm.gen(seed)),)


def reference(x):
    return torch.softmax(x.double(), dim=-1)


def build(path):
    return getattr(pm.load_python(path), ENTRIES[os.path.basename(path)])
