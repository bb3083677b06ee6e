"""Adapter of p4-glu (kforecast's own code): GLU written out, F.glu, attorch's Triton GLU."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import _p4common as p4  # noqa: E402

SHAPE = (8192, 16384)
TOL = {"rtol": 1e-4, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (2 * torch.randn(*SHAPE, device="cuda", generator=g),)


def reference(x):
    return torch.nn.functional.glu(x.double(), dim=-1)


def build(path):
    if os.path.basename(path).startswith("attorch_"):
        layer = p4.load_attorch(path).GLU(dim=-1, act_func="sigmoid")
        return lambda x: layer(x)
    m = p4.load_py(path)
    return lambda x: m.glu(x)
