"""Adapter of p8-hec-conv1d (kforecast's own code): HeCBench's 1-D convolution of 2^27
floats (the Makefile's run line) with a mask of ones of width 5 (main() loops 3..9),
inputs rand() % 256 as conv1D() draws them; zero outside the array."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

N = 1 << 27
MASK_WIDTH = 5
TOL = {"rtol": 0.0, "atol": 1e-3}  # sums of small integers: exact in float32


def make_inputs(seed):
    return (torch.randint(0, 256, (N,), device="cuda", generator=c.gen(seed)).float(),)


def reference(x):
    r = MASK_WIDTH // 2
    xp = torch.nn.functional.pad(x.double(), (r, r))
    return sum(xp[j:j + x.numel()] for j in range(MASK_WIDTH))


def build(path):
    run = c.entry(path, 2, 2)

    def fn(x):
        out = torch.empty_like(x)
        c.check(run(c.ptr(x), c.ptr(out), x.numel(), MASK_WIDTH), path)
        return out

    return fn
