"""Adapter of p61-lg-histogram (kforecast's own code): LeetGPU challenge 13 (histogramming), N =
50,000,000 int32 values in [0, 256), 256 bins; each version's kf_run(input, histogram, N,
num_bins), histogram (256,) int32 zeroed; float64 reference: torch.bincount. See _p61lg.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p61lg as lg  # noqa: E402

N, BINS = 50_000_000, 256
TOL = {"rtol": 0.0, "atol": 0.0}  # counts: exact


def make_inputs(seed):
    x = torch.randint(0, BINS, (N,), device="cuda", dtype=torch.int32, generator=lg.gen(seed))
    return (x, torch.zeros(BINS, device="cuda", dtype=torch.int32), N, BINS)


def reference(x, hist, n, bins):
    return torch.bincount(x.long(), minlength=bins).double()


def build(path):
    return lg.build(path, (1,))
