"""Adapter of p12-yh-histogram (kforecast's own code): a 256-bin histogram of 2^26 random
bytes, kf_run(data, histogram, n); each version zeroes the histogram itself (cudaMemset)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p12common as pc  # noqa: E402

N = 1 << 26  # main()'s default is 2^30 bytes
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 256, (N,), device="cuda", dtype=torch.uint8, generator=g),)


def reference(x):
    return torch.bincount(x.to(torch.int64), minlength=256).to(torch.float64)


def build(path):
    run = pc.entry(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int])

    def fn(x):
        hist = torch.empty(256, device="cuda", dtype=torch.int32)
        pc.check(run(pc.ptr(x), pc.ptr(hist), x.numel()), path)
        return hist

    return fn
