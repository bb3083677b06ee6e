"""Adapter of p13-evolve-kldiv (kforecast's own code): KernelBench level1 98, KL divergence
(batchmean) of two row-softmax distributions; the output is a scalar."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p13common as kf  # noqa: E402

ROWS, COLS = 4096, 8192
TOL = {"rtol": 1e-3, "atol": 1e-5}


def make_inputs(seed):
    g = kf.generator(seed)
    p = torch.randn(ROWS, COLS, device="cuda", generator=g).softmax(dim=-1)
    t = torch.randn(ROWS, COLS, device="cuda", generator=g).softmax(dim=-1)
    return (p, t)


def reference(p, t):
    return torch.nn.functional.kl_div(torch.log(p.double()), t.double(), reduction="batchmean")


def build(path):
    return kf.kernelbench_model(path)
