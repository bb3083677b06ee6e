"""Adapter of p8-olcf-row-sums (kforecast's own code): row sums of a 16384 x 16384 float
matrix (DSIZE, the files' constant). main() sums ones; here uniform [0, 1) values."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

DSIZE = 16384
TOL = {"rtol": 1e-3, "atol": 1e-2}  # float32 sums of 16384 values in different orders


def make_inputs(seed):
    return (torch.rand(DSIZE, DSIZE, device="cuda", generator=c.gen(seed)),)


def reference(a):
    return a.double().sum(1)


def build(path):
    if not c.is_cuda_program(path):
        return c.torch_function(path, "row_sums")
    run = c.entry(path, 2, 0)

    def fn(a):
        out = torch.empty(DSIZE, device="cuda")
        c.check(run(c.ptr(a), c.ptr(out)), path)
        return out

    return fn
