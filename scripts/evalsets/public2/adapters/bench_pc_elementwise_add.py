"""Adapter of the "pc-" elementwise add family (kforecast's own code): c = a + b of 2^25
floats through each program's `kf_run` (main()'s launch of its kernel)."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda"))
import pc_common  # noqa: E402

N = 1 << 25  # the program's own N (32 * 1024 * 1024)
TOL = {"rtol": 1e-6, "atol": 0.0}  # one float32 add per element against float64


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g), torch.randn(N, device="cuda", generator=g))


def reference(a, b):
    return a.double() + b.double()


def build(path):
    run = pc_common.entry(path)

    def fn(a, b):
        out = torch.empty_like(a)
        run(a, b, out, None, a.numel(), 0)
        return out

    return fn
