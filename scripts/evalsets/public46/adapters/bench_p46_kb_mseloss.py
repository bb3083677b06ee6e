"""Adapter of p46-kb-mseloss (kforecast's own code): mean((p - t)^2) of two 4096 x 4096
float32 tensors drawn as KernelBench problem 94's get_inputs draws them."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p46common as kf  # noqa: E402

B, D = 4096, 4096
TOL = {"rtol": 1e-3, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    scale = torch.rand((), device="cuda", generator=g) * 0.9 + 0.1
    return (torch.rand(B, D, device="cuda", generator=g) * scale, torch.rand(B, D, device="cuda", generator=g))


def reference(p, t):
    return ((p.double() - t.double()) ** 2).mean()


build = kf.build_loss
