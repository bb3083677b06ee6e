"""Adapter of pm-triton-vector-add (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubmix"))
import torch  # noqa: E402

import pm_common as pm  # noqa: E402

SIZE = 2 ** 26
TOL = {"rtol": 1e-6, "atol": 1e-6}


def make_inputs(seed):
    g = pm.gen(seed)
    return (torch.rand(SIZE, device="cuda", generator=g), torch.rand(SIZE, device="cuda", generator=g))


def reference(x, y):
    return x.double() + y.double()


def build(path):
    return pm.load_python(path).add
