"""Adapter of p12-vv-softmax (kforecast's own code): row softmax of 262144 x 127 floats
(the source main()'s own rows and cols), kf_run(input, output, rows, cols)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p12common as pc  # noqa: E402

ROWS, COLS = 32 * 64 * 128, 127
TOL = {"rtol": 1e-4, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(ROWS, COLS, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.to(torch.float64), dim=-1)


def build(path):
    run = pc.entry(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int])

    def fn(x):
        out = torch.empty_like(x)
        pc.check(run(pc.ptr(x), pc.ptr(out), ROWS, COLS), path)
        return out

    return fn
