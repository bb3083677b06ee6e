"""Adapter of p68-lk-rmsnorm (kforecast's own code): RMSNorm over dim 1, features 64, eps 1e-5, fp32 x (8, 64, 512, 512) uniform [0, 1) (batch 112 cut to 8).
See _p68lk.py: the reference version runs the problem's Model, a candidate its ModelNew with the
Model's weights copied in by shape, each through its KFORECAST kf_run(model, x); float64
reference: the Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p68lk as lk  # noqa: E402

TOL = {"rtol": 1e-4, "atol": 1e-5}
make_inputs, build, reference = lk.adapter(__file__, (8, 64, 512, 512))
