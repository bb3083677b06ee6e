"""Adapter of set (b7)'s p7-count-equal-2d family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p7common as p7  # noqa: E402


N = M = 10000
K = 50
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 100, (N, M), device="cuda", dtype=torch.int32, generator=g), K)


def build(path):
    f = p7.build(path, "torch_count_2d_equal_kernel", "count_equal_kernel_torch")
    return lambda x, k: f(x, k).reshape(-1)
