"""Adapter of p5-pmpp-scan (kforecast's own code): inclusive scan of 2^26 uint32 values (held
in an int32 tensor; values in [0, 16) keep every prefix sum under 2^31, so the bits agree)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p5common as kf  # noqa: E402

N = 1 << 26


def make_inputs(seed):
    return (torch.randint(0, 16, (N,), device="cuda", dtype=torch.int32, generator=kf.generator(seed)),)


def reference(x):
    return torch.cumsum(x.long(), 0).int()


def build(path):
    run = kf.kf_run(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t])

    def fn(x):
        out = torch.empty_like(x)
        kf.check(run(kf.ptr(x), kf.ptr(out), N), path)
        return out

    return fn
