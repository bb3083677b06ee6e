"""Adapter of the p16-radix-sort family (kforecast's own code).

Each version is a .cu program: one of GPUSorting's keys-only radix sorts with its dispatcher
and a KFORECAST `kf_run(uint32_t* keys, uint32_t size)` that sorts the buffer in place."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p16common as kf  # noqa: E402

N = 1 << 26  # 256 MB (the source tests and times 1 << 28 keys; 2^26 keeps 14 parallel checks in memory)
TOL = {"rtol": 0.0, "atol": 0.0}  # integers: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    # keys below 2^31: the unsigned order the sorts produce is int32's order
    return (torch.randint(0, 2**31 - 1, (N,), device="cuda", dtype=torch.int32, generator=g),)


def reference(x):
    return torch.sort(x.to(torch.int64))[0]


def build(path):
    return kf.inplace_u32(path, "gpusorting/Sort")
