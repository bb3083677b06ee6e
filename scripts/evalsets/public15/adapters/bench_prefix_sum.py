"""Adapter of family p15-prefix-sum (kforecast's own code): LeetGPU challenge medium/16_prefix_sum."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p15common as p15  # noqa: E402

N = 1 << 24  # the challenge allows up to 10^8 (its performance size, 250,000, is too small)
# float32 scans of 2^24 values of +-100 drift by a few units from the exact sums (|sums| ~1e5)
TOL = {"rtol": 1e-3, "atol": 50.0}
OUTPUTS = (1,)


def make_inputs(seed):
    x = torch.empty(N, device="cuda").uniform_(-100.0, 100.0, generator=p15.gen(seed))
    return (x, torch.zeros(N, device="cuda"), N)


def reference(x, out, n):
    return torch.cumsum(x.double(), 0)


def build(path):
    return p15.build(path, OUTPUTS)
