"""Adapter of family p15-cross-entropy (kforecast's own code): LeetGPU challenge medium/25_categorical_cross_entropy_loss."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p15common as p15  # noqa: E402

N, C = 10_000, 1_000  # the challenge's performance size
TOL = {"rtol": 1e-5, "atol": 1e-5}  # the challenge's own
OUTPUTS = (2,)


def make_inputs(seed):
    g = p15.gen(seed)
    logits = torch.empty(N, C, device="cuda").uniform_(-10.0, 10.0, generator=g)
    labels = torch.randint(0, C, (N,), device="cuda", generator=g, dtype=torch.int32)
    return (logits, labels, torch.zeros(1, device="cuda"), N, C)


def reference(logits, labels, loss, n, c):
    return torch.nn.functional.cross_entropy(logits.double(), labels.long()).view(1)


def build(path):
    return p15.build(path, OUTPUTS)
