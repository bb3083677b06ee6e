"""Adapter of the fused-add-rms-norm family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

ROWS, HIDDEN, EPS = 16384, 4096, 1e-6
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs

ENTRIES = {
    "torch_fused_add_rms_norm.py": lambda m: (lambda x, r, w: m.fused_add_rms_norm(x, r, w, EPS)),
    "liger_fused_add_rms_norm.py": lambda m: (
        lambda x, r, w: m.fused_add_rms_norm_forward(x, r, w, EPS, 0.0, "llama")[:2]),
    # in place: x becomes the normalised rows, residual the sum
    "flaggems_fused_add_rms_norm.py": lambda m: (
        lambda x, r, w: m.fused_add_rms_norm(x, r, [x.shape[-1]], w, EPS)),
}


def make_inputs(seed):
    x, r = kf.randn_pair((ROWS, HIDDEN), seed, torch.bfloat16)
    w = (1 + 0.1 * torch.randn(HIDDEN, device="cuda")).to(torch.bfloat16)
    return (x, r, w)


def build(path):
    f = kf.build_entry(path, ENTRIES)
    return lambda x, r, w: tuple(f(x, r, w))
