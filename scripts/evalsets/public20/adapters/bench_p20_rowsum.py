"""Adapter of p20-rowsum (kforecast's own code): row sums of a 102400x2047 float32 matrix,
each version a CuPy or Triton program whose `kernel(a, b)` writes the sums into b."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p20common as kf  # noqa: E402

M, N = 1024 * 100, 2048 - 1
TOL = {"rtol": 1e-4, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g),)


def reference(a):
    return a.double().sum(-1)


def build(path):
    mod = kf.load_module(path)

    def fn(a):
        b = torch.empty(a.shape[0], device=a.device, dtype=a.dtype)
        mod.kernel(a, b)
        return b

    return fn
