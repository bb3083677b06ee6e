"""Adapter of the rms-norm family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

ROWS, HIDDEN, EPS = 16384, 4096, 1e-6
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs

ENTRIES = {
    "torch_rms_norm.py": lambda m: (lambda x, w: m.rms_norm(x, w, EPS)),
    "liger_rms_norm.py": lambda m: (lambda x, w: m.LigerRMSNormFunction.apply(x, w, EPS, 0.0, "llama", False)),
    "flaggems_rms_norm.py": lambda m: (lambda x, w: m.rms_norm(x, [x.shape[-1]], w, EPS)),
    "unsloth_rms_layernorm.py": lambda m: (lambda x, w: m.Fast_RMS_Layernorm.apply(x, w, EPS, False)),
}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(ROWS, HIDDEN, device="cuda", generator=g).to(torch.bfloat16)
    w = (1 + 0.1 * torch.randn(HIDDEN, device="cuda", generator=g)).to(torch.bfloat16)
    return (x, w)


def build(path):
    f = kf.build_entry(path, ENTRIES)
    return lambda x, w: kf.first(f(x, w))
