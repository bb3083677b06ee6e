"""Adapter of set (b7)'s p7-conv1d family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p7common as p7  # noqa: E402


L, K = 1_500_000, 2048
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(L, device="cuda", generator=g), torch.randn(K, device="cuda", generator=g))


def reference(x, k):
    return torch.nn.functional.conv1d(x.double().view(1, 1, -1), k.double().view(1, 1, -1)).reshape(-1)


def build(path):
    f = p7.build(path, "torch_conv1d", "conv1d")
    if path.endswith(".py"):
        return lambda x, k: f(x.view(1, 1, -1), k).reshape(-1)
    return f
