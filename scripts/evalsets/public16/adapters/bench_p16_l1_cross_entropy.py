"""Adapter of the p16-l1-cross-entropy (mean cross-entropy over 10 classes) family (kforecast's own code).

Each version is a KernelBench-style module: the eager-torch reference (ours) or one of
CUDA-L1's ModelNew modules with load_inline CUDA, built with the task's init arguments (the
parameters drawn after torch.manual_seed(0), as KernelBench builds Model and ModelNew).
Inputs: 2^22 x 10 float32 logits with int64 class targets (the task's 10 classes, 1024x its batch)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p16common as kf  # noqa: E402

INIT = []
TOL = {"rtol": 1e-3, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(1 << 22, 10, device="cuda", generator=g)
    targets = torch.randint(0, 10, (1 << 22,), device="cuda", generator=g)
    return (x, targets)


def reference(x, targets):
    return torch.nn.functional.cross_entropy(x.double(), targets)


def build(path):
    model = kf.load_model(path, INIT)
    return lambda x, targets: kf.run_model(model, x, targets)
