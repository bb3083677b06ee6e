"""Adapter of p50-kb3-crossentropy (kforecast's own code): F.cross_entropy(p, t) (mean) of
p 4096 x 1024 float32 (randn) and t 4096 int64 in [0, 1024), as KernelBench-v3 problem 95's
get_inputs draws them; the loss compared as a 0-d tensor."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p50common as kf  # noqa: E402

B, C = 4096, 1024
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(B, C, device="cuda", generator=g),
            torch.randint(0, C, (B,), device="cuda", generator=g))


def reference(p, t):
    return torch.nn.functional.cross_entropy(p.double(), t)


def build(path):
    return kf.build(path, (), ())
