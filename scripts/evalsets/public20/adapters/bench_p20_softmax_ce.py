"""Adapter of p20-softmax-ce-fwd (kforecast's own code): mean softmax cross-entropy of
logits 16384x1024 and int64 labels. A module that binds `softmax_ce_forward_only` is
called through it (the no-grad path of its op.py)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p20common as kf  # noqa: E402

B, C = 16384, 1024
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    logits = 3 * torch.randn(B, C, device="cuda", generator=g)
    labels = torch.randint(0, C, (B,), device="cuda", generator=g, dtype=torch.int64)
    return (logits, labels)


def reference(logits, labels):
    return torch.nn.functional.cross_entropy(logits.double(), labels)


def build(path):
    f = kf.entry(kf.load_extension(path), ("softmax_ce_forward_only", "softmax_ce_forward", "forward"))
    return lambda logits, labels: kf.first(f(logits, labels)).reshape(())
