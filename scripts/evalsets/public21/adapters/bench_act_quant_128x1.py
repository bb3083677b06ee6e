"""Adapter of the p21-act-quant-128x1 family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p21common as kf  # noqa: E402

SHAPE = (16384, 7168)
TOL = kf.TOL

# file -> (function, returns the quantisation scale 448/amax rather than amax/448)
ENTRIES = {
    "ao_first_fp8_blockwise_act_quant_rhs.py": ("fp8_blockwise_act_quant_rhs", True),
    "ao_chunks2d_fp8_blockwise_act_quant_rhs.py": ("fp8_blockwise_act_quant_rhs", False),
    "ao_tritonop_fp8_blockwise_act_quant_rhs.py": ("triton_fp8_blockwise_act_quant_rhs", False),
    "ao_head_fp8_blockwise_act_quant_rhs.py": ("triton_fp8_blockwise_act_quant_rhs", False),
}


def make_inputs(seed):
    return kf.bf16_input(SHAPE, seed)


def build(path):
    return kf.entry(path, ENTRIES)
