"""Adapter of p5-packt-transpose (kforecast's own code): int32 8192 x 8192 transposes
(N is a #define in the programs)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p5common as kf  # noqa: E402

N = 8192


def make_inputs(seed):
    return (torch.randint(-2**30, 2**30, (N, N), device="cuda", dtype=torch.int32, generator=kf.generator(seed)),)


def build(path):
    run = kf.kf_run(path, [ctypes.c_void_p, ctypes.c_void_p])

    def fn(a):
        b = torch.empty_like(a)
        kf.check(run(kf.ptr(a), kf.ptr(b)), path)
        return b

    return fn
