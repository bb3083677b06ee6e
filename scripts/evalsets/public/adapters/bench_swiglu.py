"""Adapter of the swiglu family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

SHAPE = (4, 4096, 14336)  # batch, sequence, Llama-3-8B's intermediate size
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs

ENTRIES = {
    "torch_swiglu.py": lambda m: m.swiglu,
    "liger_swiglu.py": lambda m: (lambda a, b: m.LigerSiLUMulFunction.apply(a, b)),
    "unsloth_swiglu.py": lambda m: m.swiglu_fg_kernel,
    "flaggems_silu_and_mul.py": lambda m: m.silu_and_mul,
}


def make_inputs(seed):
    return kf.randn_pair(SHAPE, seed, torch.bfloat16)


def build(path):
    f = kf.build_entry(path, ENTRIES)
    return lambda a, b: kf.first(f(a, b))
