"""Adapter of the layer-norm family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

ROWS, HIDDEN, EPS = 16384, 4096, 1e-5
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs

ENTRIES = {
    "torch_layer_norm.py": lambda m: (lambda x, w, b: m.layer_norm(x, w, b, EPS)),
    "liger_layer_norm.py": lambda m: (lambda x, w, b: m.LigerLayerNormFunction.apply(x, w, b, EPS)),
    "flaggems_layernorm.py": lambda m: (lambda x, w, b: m.layer_norm(x, [x.shape[-1]], w, b, EPS)),
}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(ROWS, HIDDEN, device="cuda", generator=g).to(torch.bfloat16)
    w = (1 + 0.1 * torch.randn(HIDDEN, device="cuda", generator=g)).to(torch.bfloat16)
    b = (0.1 * torch.randn(HIDDEN, device="cuda", generator=g)).to(torch.bfloat16)
    return (x, w, b)


def build(path):
    f = kf.build_entry(path, ENTRIES)
    return lambda x, w, b: kf.first(f(x, w, b))
