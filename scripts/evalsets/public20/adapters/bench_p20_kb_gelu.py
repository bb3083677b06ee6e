"""Adapter of p20-kb-gelu (kforecast's own code): MinGPT new GELU of x 8192x8192."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p20common as kf  # noqa: E402

B, D = 8192, 8192
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(B, D, device="cuda", generator=g),)


def reference(x):
    xd = x.double()
    return 0.5 * xd * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (xd + 0.044715 * xd.pow(3))))


def build(path):
    model = kf.kernelbench_model(path)

    def fn(x):
        with torch.no_grad():
            return model(x)

    return fn
