"""Adapter of p82-fi-gelu (kforecast's own code): minGPT tanh GELU on fp32 x (8192, 8192) normal.
See _p82fi.py: the reference runs the KernelBench problem's Model, a candidate its ModelNew,
each through its KFORECAST kf_run(model, *inputs); a candidate whose own CUDA kernels do not
run (torch fallback) fails; float64 reference: the reference Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p82fi as fi  # noqa: E402

TOL = {"rtol": 1e-3, "atol": 1e-4}
make_inputs, build, reference = fi.adapter(__file__, [(8192, 8192)])
