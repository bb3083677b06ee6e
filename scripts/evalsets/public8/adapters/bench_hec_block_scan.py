"""Adapter of p8-hec-block-scan (kforecast's own code): exclusive scan of every
1024-element block of 2^28 ints (the Makefile's run line), inputs rand() % 5 + 1 as
runTest() draws them."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p8common as c  # noqa: E402

N, BLOCK = 1 << 28, 1024
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    return (torch.randint(1, 6, (N,), device="cuda", generator=c.gen(seed), dtype=torch.int32),)


def reference(x):
    seg = x.view(-1, BLOCK).long()
    return (torch.cumsum(seg, 1) - seg).view(-1).double()


def build(path):
    if not c.is_cuda_program(path):
        return c.torch_function(path, "block_scan")
    run = c.entry(path, 2, 0)
    run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong]

    def fn(x):
        out = torch.empty_like(x)
        c.check(run(c.ptr(out), c.ptr(x), x.numel()), path)
        return out

    return fn
