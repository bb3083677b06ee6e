"""Adapter of p31-sage-attn (kforecast's own code): SageAttention's Triton attention
forward(q, k, v, q_scale, k_scale) on INT8 q, k (per-block float32 scales, HND) and fp16 v, b=2,
32 heads, 4096 tokens, head dim 128; a version returning (o, lse) gives o. Inputs quantised by
_p31common.sage_inputs; float64 reference on the dequantised q, k (exp2 softmax)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402,F401

import _p31common as kf  # noqa: E402

TOL = kf.ATTN_TOL
make_inputs, reference, build = kf.attn_adapter(128, causal=False)
