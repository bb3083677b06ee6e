"""Adapter of the p16-l1-dwconv (depthwise 3x3 convolution, 3 channels, stride 1, no padding) family (kforecast's own code).

Each version is a KernelBench-style module: the eager-torch reference (ours) or one of
CUDA-L1's ModelNew modules with load_inline CUDA, built with the task's init arguments (the
parameters drawn after torch.manual_seed(0), as KernelBench builds Model and ModelNew).
Inputs: 16 x 3 x 1024 x 1024 float32 (50 M elements)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p16common as kf  # noqa: E402

INIT = [3, 3, 3, 1, 0]
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(16, 3, 1024, 1024, device="cuda", generator=g)
    return (x,)


def build(path):
    model = kf.load_model(path, INIT)
    return lambda x: kf.run_model(model, x)
