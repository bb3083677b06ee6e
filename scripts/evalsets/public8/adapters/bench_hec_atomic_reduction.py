"""Adapter of p8-hec-atomic-reduction (kforecast's own code): int sum of 52428800
elements (main()'s default), inputs rand() % 2 as main() draws them."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

N = 52428800
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    return (torch.randint(0, 2, (N,), device="cuda", generator=c.gen(seed), dtype=torch.int32),)


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    run = c.entry(path, 2, 1)

    def fn(x):
        out = torch.empty(1, device="cuda", dtype=torch.int32)
        c.check(run(c.ptr(x), c.ptr(out), x.numel()), path)
        return out

    return fn
