"""Adapter of the attention-fp32 family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

SHAPE = (16, 12, 1024, 64)  # batch, heads, sequence, head dim
TOL = {"rtol": 1e-3, "atol": 1e-4}

ENTRIES = {
    "kernelbench_model_ex_flash_attn.py": kf.kernelbench_model,
    "kernelbench_97_ScaledDotProductAttention.py": kf.kernelbench_model,
    "kernelbench_model_new_ex_flash_attn.py": kf.kernelbench_model,
}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return tuple(torch.randn(*SHAPE, device="cuda", generator=g) for _ in range(3))


def build(path):
    return kf.build_entry(path, ENTRIES)
