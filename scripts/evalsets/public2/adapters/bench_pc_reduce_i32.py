"""Adapter of the "pc-" int reduce ladder (kforecast's own code).

Each version is a tutorial .cu program with a `kf_run` entry point that runs main()'s launch
of its kernel and returns how many per-block partial sums it wrote. The partial sums are added here in int64 (one small torch kernel,
the same for every version), so versions with different block counts compare."""

import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pubcuda"))
import pc_common  # noqa: E402

N = 1 << 25  # the ladder's len (32 * 1024 * 1024), 128 MB
TOL = {"rtol": 0.0, "atol": 0.0}  # integer sums are exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 16, (N,), device="cuda", dtype=torch.int32, generator=g),)


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    run = pc_common.entry(path)

    def fn(x):
        out = torch.empty(x.numel() // 32, device=x.device, dtype=x.dtype)
        count = run(x, None, out, None, x.numel(), 0)
        return out[:count].sum(dtype=torch.int64).reshape(1)

    return fn
