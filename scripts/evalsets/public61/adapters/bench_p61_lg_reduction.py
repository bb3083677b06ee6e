"""Adapter of p61-lg-reduction (kforecast's own code): LeetGPU challenge 4 (reduction), N =
100,000,000 fp32 in [-1, 1]; each version's kf_run(input, output, N), output (1,) fp32 zeroed;
float64 reference: the sum in float64. See _p61lg.py."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p61lg as lg  # noqa: E402

N = 100_000_000
# fp32 sums of 1e8 values of |x| <= 1 (|sum| ~ 6e3) by trees, grid-stride loops and up to 4e5
# atomicAdds: rounding moves the result by ~1e-2; a lost block of 256 elements moves it by ~10
TOL = {"rtol": 1e-4, "atol": 0.5}


def make_inputs(seed):
    x = torch.empty(N, device="cuda").uniform_(-1.0, 1.0, generator=lg.gen(seed))
    return (x, torch.zeros(1, device="cuda"), N)


def reference(x, out, n):
    return x.double().sum().reshape(1)


def build(path):
    return lg.build(path, (1,))
