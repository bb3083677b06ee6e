"""Adapter of p6-histogram (kforecast's own code): 256 bins of 16M ints in [0, 256)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p6common as p6  # noqa: E402

N = 16 * 1024 * 1024
BINS = 256


def make_inputs(seed):
    return (torch.randint(0, BINS, (N,), dtype=torch.int32, device="cuda", generator=p6.gen(seed)),)


def reference(x):
    return torch.bincount(x.long(), minlength=BINS)


def build(path):
    run = p6.cuda_entry(path, 2)

    def fn(x):
        bins = torch.empty(BINS, dtype=torch.int32, device="cuda")
        p6.check(run(p6.ptr(x), p6.ptr(bins)), path)
        return bins

    return fn
