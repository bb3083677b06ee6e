"""Adapter of the geglu family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

SHAPE = (4, 4096, 16384)  # batch, sequence, Gemma-7B's intermediate size
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs

ENTRIES = {
    "torch_geglu.py": lambda m: m.geglu,
    "liger_geglu.py": lambda m: (lambda a, b: m.LigerGELUMulFunction.apply(a, b)),
    "unsloth_geglu.py": lambda m: m.geglu_approx_forward_kernel,
    "flaggems_gelu_and_mul.py": lambda m: (lambda a, b: m.gelu_and_mul(a, b, approximate="tanh")),
}


def make_inputs(seed):
    return kf.randn_pair(SHAPE, seed, torch.bfloat16)


def build(path):
    f = kf.build_entry(path, ENTRIES)
    return lambda a, b: kf.first(f(a, b))
