"""Adapter of p73-cl-relu (kforecast's own code): ReLU on fp32 x (4096, 16384) normal.
See _p73cl.py: the reference and the two baselines run the problem's Model, a candidate its
ModelNew with the reference's weights copied in by shape, each through its KFORECAST
kf_run(model, x); a candidate whose own CUDA kernels do not run (silent torch fallback) fails;
float64 reference: the reference Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p73cl as cl  # noqa: E402

TOL = {"rtol": 1e-3, "atol": 1e-3}
make_inputs, build, reference = cl.adapter(__file__, (4096, 16384))
