"""Adapter of p18-hbook-reduction (kforecast's own code): sum of 32M ints of 0/1
(reduction.cu's default --n 32 and its rand()&1 data)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p18common as kf  # noqa: E402

N = 32 * 1048576


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 2, (N,), device="cuda", dtype=torch.int32, generator=g),)


def reference(x):
    return x.long().sum().reshape(1)


def build(path):
    run = kf.build_lib(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t], kf.HBOOK)

    def fn(x):
        out = torch.empty(1, device=x.device, dtype=torch.int32)
        kf.check(run(kf.ptr(out), kf.ptr(x), x.numel()), path)
        return out

    return fn
