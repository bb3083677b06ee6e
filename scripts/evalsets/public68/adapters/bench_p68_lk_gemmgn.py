"""Adapter of p68-lk-gemmgn (kforecast's own code): Linear(8192, 8192), GroupNorm(256), Swish, * weight, Swish on fp32 x (1024, 8192) uniform [0, 1); Triton tl.dot on fp32 runs TF32, hence the tolerance.
See _p68lk.py: the reference version runs the problem's Model, a candidate its ModelNew with the
Model's weights copied in by shape, each through its KFORECAST kf_run(model, x); float64
reference: the Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p68lk as lk  # noqa: E402

TOL = {"rtol": 1e-2, "atol": 1e-2}
make_inputs, build, reference = lk.adapter(__file__, (1024, 8192))
