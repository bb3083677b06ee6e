"""Adapter of p31-sage-attn-h96 (kforecast's own code): as p31-sage-attn, head dim 96."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402,F401

import _p31common as kf  # noqa: E402

TOL = kf.ATTN_TOL
make_inputs, reference, build = kf.attn_adapter(96, causal=False)
