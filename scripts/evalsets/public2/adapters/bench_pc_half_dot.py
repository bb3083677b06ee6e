"""Adapter of the "pc-" half dot-product family (kforecast's own code).

Every thread of these programs adds its partial dot product atomically into one half, so
the order of the additions differs from run to run. The inputs make every order exact: x is
0 or 1 with 1,000 ones among 2^25 halves, y is all ones, so the dot product is the number of
ones (exact in half up to 2048) whatever the order. The memory traffic and the atomics are
those of any input of this size."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda"))
import pc_common  # noqa: E402

N = 1 << 25  # the programs' #define N (32 * 1024 * 1024)
ONES = 1000
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.zeros(N, device="cuda", dtype=torch.half)
    x[torch.randint(0, N, (ONES,), device="cuda", generator=g)] = 1.0
    y = torch.ones(N, device="cuda", dtype=torch.half)
    return (x, y)


def reference(x, y):
    return (x.double() * y.double()).sum().reshape(1)


def build(path):
    run = pc_common.entry(path)

    def fn(x, y):
        out = torch.empty(2, device=x.device, dtype=torch.half)  # main()'s 2 halves, zeroed by it
        run(x, y, out, None, x.numel(), 0)
        return out[:1]

    return fn
