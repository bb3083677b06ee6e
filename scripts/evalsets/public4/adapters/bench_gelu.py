"""Adapter of p4-gelu (kforecast's own code): the erf formula, F.gelu, attorch's Triton GELU."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import _p4common as p4  # noqa: E402

SHAPE = (8192, 8192)
TOL = {"rtol": 1e-4, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (3 * torch.randn(*SHAPE, device="cuda", generator=g),)


def reference(x):
    return torch.nn.functional.gelu(x.double())


def build(path):
    if os.path.basename(path).startswith("attorch_"):
        layer = p4.load_attorch(path).GELU().eval()
        return lambda x: layer(x)
    m = p4.load_py(path)
    return lambda x: m.gelu(x)
