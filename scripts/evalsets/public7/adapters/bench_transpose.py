"""Adapter of set (b7)'s p7-transpose family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p7common as p7  # noqa: E402


N = 8192
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, N, device="cuda", generator=g),)


def reference(a):
    return a.T.contiguous()


def build(path):
    return p7.build(path, "torch_matrix_transpose", "matrix_transpose")
