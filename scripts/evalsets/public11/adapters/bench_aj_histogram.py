"""Adapter of p11-aj-histogram (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p11common as p11  # noqa: E402

N, BINS = 1 << 26, 256


def make_inputs(seed):
    samples = torch.randint(0, BINS, (N,), device="cuda", dtype=torch.int32, generator=p11.gen(seed))
    out = torch.full((BINS,), -1, device="cuda", dtype=torch.int32)
    return (samples, out)


def reference(samples, out):
    return torch.bincount(samples.long(), minlength=BINS).to(torch.int32)


def build(path):
    return p11.gpumode(path)
