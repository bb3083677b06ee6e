"""Adapter of p12-cse554-add (kforecast's own code): c = a + b on 2^26 ints,
kf_run(a, b, c, num)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p12common as pc  # noqa: E402

N = 1 << 26  # main()'s num is 1e9 ints
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randint(-(1 << 20), 1 << 20, (N,), device="cuda", dtype=torch.int32, generator=g)
    b = torch.randint(-(1 << 20), 1 << 20, (N,), device="cuda", dtype=torch.int32, generator=g)
    return (a, b)


def reference(a, b):
    return a.to(torch.float64) + b.to(torch.float64)


def build(path):
    run = pc.entry(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t])

    def fn(a, b):
        c = torch.empty_like(a)
        pc.check(run(pc.ptr(a), pc.ptr(b), pc.ptr(c), a.numel()), path)
        return c

    return fn
