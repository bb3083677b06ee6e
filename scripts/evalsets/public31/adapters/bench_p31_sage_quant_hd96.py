"""Adapter of p31-sage-quant-hd96 (kforecast's own code): per_block_int8_hd96(q, k) on fp16
(2, 32, 4096, 96), as p31-sage-quant (integer-valued inputs, exact codes, scales rtol 2e-3)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402,F401

import _p31common as kf  # noqa: E402

TOL = kf.QUANT_TOL
make_inputs, reference, build = kf.quant_adapter(96)
