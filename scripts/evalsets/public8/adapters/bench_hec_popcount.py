"""Adapter of p8-hec-popcount (kforecast's own code): population count of 2^24 64-bit
words (the Makefile's run line), each drawn as main() draws it: rand() << 32 | rand()."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

LENGTH = 1 << 24
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = c.gen(seed)
    hi = torch.randint(0, 1 << 31, (LENGTH,), device="cuda", generator=g, dtype=torch.int64)
    lo = torch.randint(0, 1 << 31, (LENGTH,), device="cuda", generator=g, dtype=torch.int64)
    return ((hi << 32) | lo,)


def reference(data):
    lut = torch.tensor([bin(i).count("1") for i in range(256)], device=data.device, dtype=torch.float64)
    return lut[data.view(torch.uint8).long()].view(-1, 8).sum(1)


def build(path):
    run = c.entry(path, 2, 1)

    def fn(data):
        out = torch.empty(data.numel(), device="cuda", dtype=torch.int32)
        c.check(run(c.ptr(data), c.ptr(out), data.numel()), path)
        return out

    return fn
