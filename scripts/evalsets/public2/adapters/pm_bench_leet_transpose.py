"""Adapter of pm-leetcuda-transpose (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubmix"))
import torch  # noqa: E402

import pm_common as pm  # noqa: E402

M, N = 8192, 8192
TOL = {"rtol": 0.0, "atol": 0.0}  # a copy


def make_inputs(seed):
    return (torch.randn(M, N, device="cuda", generator=pm.gen(seed)),)


def reference(x):
    return x.double().t()


def build(path):
    op = pm.load_leetcuda(path)

    def fn(x):
        y = torch.empty((x.shape[1], x.shape[0]), device=x.device, dtype=x.dtype)
        op(x, y)
        return y
    return fn
