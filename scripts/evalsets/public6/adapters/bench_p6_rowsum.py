"""Adapter of p6-sc-rowsum (kforecast's own code): row sums, float32 4096 x 4096."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p6common as p6  # noqa: E402

NROW, NCOL = 4096, 4096
TOL = {"rtol": 1e-4, "atol": 1e-3}


def make_inputs(seed):
    return (torch.randn(NROW, NCOL, device="cuda", generator=p6.gen(seed)),)


def reference(x):
    return x.double().sum(dim=1)


def build(path):
    run = p6.cuda_entry(path, 2, 2)

    def fn(x):
        out = torch.empty(NROW, device="cuda")
        p6.check(run(p6.ptr(out), p6.ptr(x), NROW, NCOL), path)
        return out

    return fn
