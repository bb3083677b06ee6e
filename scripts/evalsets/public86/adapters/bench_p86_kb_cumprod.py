"""Adapter of p86-kb-cumprod (kforecast's own code): cumprod over dim 1 on fp32 x (4096, 32768)
uniform [0, 1) (the fork's problem 90: batch 32768, cut to 4096). See _p86kb.py: the reference
runs the problem's Model, a candidate the agent round's CUDA wrapper with dim 1, each through its
KFORECAST kf_run(x); a candidate whose own CUDA kernels do not run fails; float64 reference: the
Model in float64 on the same inputs (the products fall below fp32's range within a few hundred
elements of each row; atol covers the tail)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p86kb as kb  # noqa: E402

TOL = {"rtol": 1e-3, "atol": 1e-5}
make_inputs, build, reference = kb.adapter(__file__, (4096, 32768))
