"""Adapter of p12-cse554-transpose (kforecast's own code): an 8192 x 8192 float transpose
(main()'s own size), kf_run(input, output, rows, cols)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p12common as pc  # noqa: E402

ROWS, COLS = 8192, 8192
TOL = {"rtol": 0.0, "atol": 0.0}  # a copy: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(ROWS, COLS, device="cuda", generator=g),)


def reference(x):
    return x.to(torch.float64).t().contiguous()


def build(path):
    run = pc.entry(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int])

    def fn(x):
        out = torch.empty(COLS, ROWS, device="cuda", dtype=torch.float32)
        pc.check(run(pc.ptr(x), pc.ptr(out), ROWS, COLS), path)
        return out

    return fn
