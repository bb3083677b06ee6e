"""Adapter of the "pc-" float reduce ladders (kforecast's own code).

Each version is a tutorial .cu program with a `kf_run` entry point that runs main()'s launch
of its kernel and returns how many per-block partial sums it wrote. The partial sums are added here in float64 (one small torch kernel,
the same for every version), so versions with different block counts compare."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda"))
import pc_common  # noqa: E402

N = 1 << 25  # the programs' own N (32 * 1024 * 1024), 128 MB
TOL = {"rtol": 1e-5, "atol": 1.0}  # float32 partial sums of ~1.7e7 in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g),)


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    run = pc_common.entry(path)

    def fn(x):
        out = torch.empty(x.numel() // 32, device=x.device, dtype=x.dtype)
        count = run(x, None, out, None, x.numel(), 0)
        return out[:count].sum(dtype=torch.float64).reshape(1)

    return fn
