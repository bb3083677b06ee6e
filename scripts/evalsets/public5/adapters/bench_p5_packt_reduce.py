"""Adapter of p5-packt-reduce (kforecast's own code): float sums of 1 << 24 elements, each
version one pass of its folder's timed loop; the sum lands in element 0 of the output."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p5common as kf  # noqa: E402

SIZE = 1 << 24
TOL = {"rtol": 1e-3, "atol": 0.5}


def make_inputs(seed):
    return (torch.rand(SIZE, device="cuda", generator=kf.generator(seed)),)


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    run = kf.kf_run(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int])

    def fn(x):
        out = torch.empty_like(x)
        kf.check(run(kf.ptr(out), kf.ptr(x), x.numel()), path)
        return out[:1]

    return fn
