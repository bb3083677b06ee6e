"""Adapter of p31-sage-quant (kforecast's own code): SageAttention's per_block_int8(q, k) ->
(q_int8, q_scale, k_int8, k_scale), HND, q and k fp16 (2, 32, 4096, 128), integer-valued in
[-127, 127] (every block holds +-127 with overwhelming probability), so the INT8 codes equal the
inputs whether a version computes in fp16 or fp32: codes compared exactly; scales (shape
(b, h, blocks, 1) or (b, h, blocks): the harness reshapes) with rtol 2e-3."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402,F401

import _p31common as kf  # noqa: E402

TOL = kf.QUANT_TOL
make_inputs, reference, build = kf.quant_adapter(128)
