"""Adapter of p6-transpose (kforecast's own code): y = x^T, float32 4096 x 4096."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p6common as p6  # noqa: E402

SIZE = 4096
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    return (torch.randn(SIZE, SIZE, device="cuda", generator=p6.gen(seed)),)


def reference(x):
    return x.double().t().contiguous()


def build(path):
    run = p6.cuda_entry(path, 2)

    def fn(x):
        y = torch.empty(SIZE, SIZE, device="cuda")
        p6.check(run(p6.ptr(y), p6.ptr(x)), path)
        return y

    return fn
