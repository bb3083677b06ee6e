"""Adapter of the p16-scan family (kforecast's own code).

Each version is a .cu program: one of GPUPrefixSums' inclusive scans with its dispatcher and a
KFORECAST `kf_run(uint32_t* scan, uint32_t size)` that scans the buffer in place."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p16common as kf  # noqa: E402

N = 1 << 26  # 256 MB (the source tests and times 1 << 28 words; 2^26 keeps 14 parallel checks in memory)
TOL = {"rtol": 0.0, "atol": 0.0}  # integers: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    # values 0..3: the inclusive sum stays below 2^31, so int32 holds the uint32 result
    return (torch.randint(0, 4, (N,), device="cuda", dtype=torch.int32, generator=g),)


def reference(x):
    return torch.cumsum(x.to(torch.int64), 0)


def build(path):
    return kf.inplace_u32(path, "gpuprefixsums")
