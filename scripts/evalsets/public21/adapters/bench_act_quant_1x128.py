"""Adapter of the p21-act-quant-1x128 family (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p21common as kf  # noqa: E402

SHAPE = (16384, 7168)  # tokens x DeepSeek-V3's hidden size
TOL = kf.TOL

# file -> (function, returns the quantisation scale 448/amax rather than amax/448)
ENTRIES = {
    "torch_act_quant_lhs.py": ("torch_blockwise_scale_act_quant_lhs", True),
    "deepseek_v3_act_quant.py": ("act_quant", False),
    "ao_first_fp8_blockwise_act_quant_lhs.py": ("fp8_blockwise_act_quant_lhs", True),
    "ao_chunks2d_fp8_blockwise_act_quant_lhs.py": ("fp8_blockwise_act_quant_lhs", False),
    "ao_tritonop_fp8_blockwise_act_quant_lhs.py": ("triton_fp8_blockwise_act_quant_lhs", False),
    "ao_head_fp8_blockwise_act_quant_lhs.py": ("triton_fp8_blockwise_act_quant_lhs", False),
}


def make_inputs(seed):
    return kf.bf16_input(SHAPE, seed)


def build(path):
    return kf.entry(path, ENTRIES)
