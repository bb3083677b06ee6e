"""Adapter of p31-gm-histogram (kforecast's own code): GPU MODE PMPP histogram, each version's
`custom_kernel(data)` (the reference version's `ref_kernel`) on the problem's own
generate_input(size=10485760, contention=10, seed=8841 + draw) (its largest benchmark, uint8).
Exact comparison; the reference is torch.bincount over int64 values."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402,F401

import _p31common as kf  # noqa: E402

TOL = {"rtol": 0.0, "atol": 0.0}


def _hist64(data):
    return torch.bincount(data.long(), minlength=256)


make_inputs, reference, build = kf.gm_adapter(
    os.path.dirname(os.path.abspath(__file__)),
    lambda mod, seed: mod.generate_input(size=10485760, contention=10, seed=8841 + seed % 1000), _hist64)
