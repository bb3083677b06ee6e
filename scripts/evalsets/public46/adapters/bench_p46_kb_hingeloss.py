"""Adapter of p46-kb-hingeloss (kforecast's own code): mean(clamp(1 - p * t, 0)) of
predictions 4096 x 4096 and 4096 +-1 targets, drawn as KernelBench problem 100's get_inputs
draws them (torch broadcasts t along the last dimension; see the family notes)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p46common as kf  # noqa: E402

B, D = 4096, 4096
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    p = torch.rand(B, D, device="cuda", generator=g)
    t = torch.randint(0, 2, (B,), device="cuda", generator=g).float() * 2 - 1
    return (p, t)


def reference(p, t):
    return torch.clamp(1 - p.double() * t.double(), min=0).mean()


build = kf.build_loss
