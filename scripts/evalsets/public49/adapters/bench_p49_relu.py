"""Adapter of the p49-pk-relu families (kforecast's own code): ReLU of x 4096 x 16384 float32,
uniform [0, 1) as the problem's get_inputs draws it, shifted by -0.5 so that half the elements
are negative (uniform [0, 1) alone would make ReLU the identity and hide a version that copies)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p49common as kf  # noqa: E402

B, D = 4096, 16384
TOL = {"rtol": 0.0, "atol": 1e-7}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(B, D, device="cuda", generator=g) - 0.5,)


def reference(x):
    return torch.relu(x.double())


build = kf.build
