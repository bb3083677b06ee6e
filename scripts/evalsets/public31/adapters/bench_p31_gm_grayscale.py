"""Adapter of p31-gm-grayscale (kforecast's own code): GPU MODE PMPP grayscale, each version's
`custom_kernel(data)` (the reference version's `ref_kernel`) on the problem's own
generate_input(size=8192, seed=6252 + draw) (an 8192 x 8192 x 3 float32 image, 2^26 pixels).
Float64 reference: the weighted channel sum in float64 with the float32 weights."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402,F401

import _p31common as kf  # noqa: E402

TOL = {"rtol": 1e-5, "atol": 1e-6}


def _gray64(data):
    w = torch.tensor([0.2989, 0.5870, 0.1140], dtype=torch.float32).double().to(data.device)
    return (data.double() * w).sum(dim=-1)


make_inputs, reference, build = kf.gm_adapter(
    os.path.dirname(os.path.abspath(__file__)),
    lambda mod, seed: mod.generate_input(size=8192, seed=6252 + seed % 1000), _gray64)
