"""Adapter of the p16-l1-huber (mean smooth-L1 loss) family (kforecast's own code).

Each version is a KernelBench-style module: the eager-torch reference (ours) or one of
CUDA-L1's ModelNew modules with load_inline CUDA, built with the task's init arguments (the
parameters drawn after torch.manual_seed(0), as KernelBench builds Model and ModelNew).
Inputs: two 16384 x 4096 float32 tensors (2^26 elements each)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p16common as kf  # noqa: E402

INIT = []
TOL = {"rtol": 1e-3, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(16384, 4096, device="cuda", generator=g)
    y = torch.randn(16384, 4096, device="cuda", generator=g)
    return (x, y)


def reference(x, y):
    return torch.nn.functional.smooth_l1_loss(x.double(), y.double())


def build(path):
    model = kf.load_model(path, INIT)
    return lambda x, y: kf.run_model(model, x, y)
