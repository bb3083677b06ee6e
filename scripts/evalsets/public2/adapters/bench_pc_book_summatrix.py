"""Adapter of the "pc-book-summatrix" family (kforecast's own code): C = A + B of 2^14 x 2^14
floats (the book's main() size) through each program's `kf_run`. The programs include the
book's ../common/common.h, vendored under _vendor/pubcuda/common/."""
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda"))
import pc_common  # noqa: E402

NX = NY = 1 << 14
TOL = {"rtol": 1e-6, "atol": 0.0}  # one float32 add per element against float64


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(NY, NX, device="cuda", generator=g), torch.randn(NY, NX, device="cuda", generator=g))


def reference(a, b):
    return a.double() + b.double()


def build(path):
    run = pc_common.book_entry(path)

    def fn(a, b):
        out = torch.empty_like(a)
        run(a, b, out, None, a.shape[0], a.shape[1])
        return out

    return fn
