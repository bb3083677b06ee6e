"""Adapter of p73-cl-convhswish (kforecast's own code): Conv2d(3, 16, 3), ReLU, HardSwish on fp32 x (128, 3, 256, 256) normal; torch's fp32 conv may run TF32 on cuDNN, hence the tolerance.
See _p73cl.py: the reference and the two baselines run the problem's Model, a candidate its
ModelNew with the reference's weights copied in by shape, each through its KFORECAST
kf_run(model, x); a candidate whose own CUDA kernels do not run (silent torch fallback) fails;
float64 reference: the reference Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p73cl as cl  # noqa: E402

TOL = {"rtol": 1e-2, "atol": 1e-2}
make_inputs, build, reference = cl.adapter(__file__, (128, 3, 256, 256))
