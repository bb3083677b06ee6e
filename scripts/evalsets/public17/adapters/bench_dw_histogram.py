"""Adapter of p17-dw-text-histogram (kforecast's own code): 2^26 characters, 7 bins."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p17common as kf  # noqa: E402

N = 1 << 26
TOL = {"rtol": 0, "atol": 0}
# per-block private copies in global memory: one 7-bin row per block of 32 threads
ROWS = {"atomic_operation_privatization.cu": (N + 31) // 32}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    letters = torch.randint(ord("a"), ord("z") + 1, (N,), device="cuda", generator=g, dtype=torch.int32)
    space = torch.rand(N, device="cuda", generator=g) < 0.15
    text = torch.where(space, torch.full_like(letters, ord(" ")), letters).to(torch.uint8)
    return (text,)


def reference(text):
    t = text.long()
    ok = (t >= ord("a")) & (t <= ord("z"))
    return torch.bincount((t[ok] - ord("a")) // 4, minlength=7).double()


def build(path):
    run = kf.cuda_entry(path)
    rows = ROWS.get(os.path.basename(path), 1)
    histo = torch.empty(rows * 7, dtype=torch.int32, device="cuda")

    def fn(text):
        histo.zero_()
        run(kf.ptr(text), kf.ptr(histo), ctypes.c_uint(text.numel()))
        return histo[:7].clone()

    return fn
