"""Adapter of the p21-swiglu family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import _p21common as kf  # noqa: E402

ROWS, COLS = 8192, 14336
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs

ENTRIES = {
    "torch_swiglu.py": "swiglu",
    "torchtitan_grouped_experts_silu_and_mul.py": "silu_and_mul_forward_kernel",
    "torchtitan_fused_swiglu_silu_and_mul.py": "silu_and_mul_forward_kernel",
    "harsh_vsingh_swiglu.py": "swiglu",
}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    gate = torch.randn(ROWS, COLS, device="cuda", generator=g).to(torch.bfloat16)
    up = torch.randn(ROWS, COLS, device="cuda", generator=g).to(torch.bfloat16)
    return (gate, up)


def reference(gate, up):
    g = gate.double()
    return F.silu(g) * up.double()


def build(path):
    func = getattr(kf.load(path), ENTRIES[os.path.basename(path)])
    return lambda gate, up: func(gate, up)
