"""Adapter of the "pc-book-reduce-int" family (kforecast's own code): the book's integer
reduction of 2^24 ints (main()'s size, block 512) through each program's `kf_run`, which
returns how many per-block partial sums it wrote; they are added here in int64 (one small
torch kernel, the same for every version). The kernels reduce in place in their input, as
the book's do (the harness gives every checked run a fresh copy). The programs include the
book's ../common/common.h (_vendor/pubcuda/common/)."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda"))
import pc_common  # noqa: E402

N = 1 << 24
TOL = {"rtol": 0.0, "atol": 0.0}  # integer sums are exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 256, (N,), device="cuda", dtype=torch.int32, generator=g),)


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    run = pc_common.book_entry(path)

    def fn(x):
        out = torch.empty(x.numel() // 512, device=x.device, dtype=x.dtype)
        count = run(x, None, out, None, x.numel(), 0)
        return out[:count].sum(dtype=torch.int64).reshape(1)

    return fn
