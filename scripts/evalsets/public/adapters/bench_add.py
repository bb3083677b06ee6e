"""Adapter of the add family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

SHAPE = (16384, 16384)  # 2^28 floats, 1 GiB an operand

ENTRIES = {
    "kernelbench_model_ex_add.py": kf.kernelbench_model,
    "kernelbench_model_new_ex_add.py": kf.kernelbench_model,
    "flaggems_add.py": lambda m: m.add,
}


def make_inputs(seed):
    return kf.randn_pair(SHAPE, seed, torch.float32)


def build(path):
    return kf.build_entry(path, ENTRIES)
