"""Adapter of p5-bf-reduce (kforecast's own code): the book's float sums of N = 1e8
elements (N is a const in every program: the input must have exactly N elements)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p5common as kf  # noqa: E402

N = 100_000_000
TOL = {"rtol": 1e-3, "atol": 1.0}  # float32 sums of ~5e7 in different orders


def make_inputs(seed):
    return (torch.rand(N, device="cuda", generator=kf.generator(seed)),)


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    run = kf.kf_run(path, [ctypes.c_void_p, ctypes.POINTER(ctypes.c_float)])

    def fn(x):
        s = ctypes.c_float(float("nan"))
        kf.check(run(kf.ptr(x), ctypes.byref(s)), path)
        return torch.tensor([s.value], device=x.device, dtype=torch.float32)

    return fn
