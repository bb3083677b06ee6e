"""Adapter of p5-bf-transpose (kforecast's own code): float N x N transposes, N = 8192."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p5common as kf  # noqa: E402

N = 8192
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    return (torch.rand(N, N, device="cuda", generator=kf.generator(seed)),)


def reference(a):
    return a.double().t().contiguous()


def build(path):
    run = kf.kf_run(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int])

    def fn(a):
        b = torch.empty_like(a)
        kf.check(run(kf.ptr(a), kf.ptr(b), N), path)
        return b

    return fn
