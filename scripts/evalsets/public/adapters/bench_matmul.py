"""Adapter of the matmul-fp32 family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _kfcommon as kf  # noqa: E402

N = 2048 * 2  # KernelBench level-1 problem 1's size
TOL = {"rtol": 2e-3, "atol": 1e-2}  # FlagGems' tl.dot takes float32 as TF32

ENTRIES = {
    "kernelbench_1_Square_matrix_multiplication_.py": lambda m: kf.kernelbench_model(m),
    "kernelbench_model_new_ex_tiled_matmul.py": lambda m: kf.kernelbench_model(m),
    "flaggems_mm.py": lambda m: m.mm,
}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(N, N, device="cuda", generator=g)
    b = torch.rand(N, N, device="cuda", generator=g)
    return (a, b)


def build(path):
    f = kf.build_entry(path, ENTRIES)
    return lambda a, b: kf.first(f(a, b))
