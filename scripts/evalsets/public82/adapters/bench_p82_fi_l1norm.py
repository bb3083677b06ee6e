"""Adapter of p82-fi-l1norm (kforecast's own code): x / sum(|x|, dim 1) on fp32 x (2048, 16384) normal.
See _p82fi.py: the reference runs the KernelBench problem's Model, a candidate its ModelNew,
each through its KFORECAST kf_run(model, *inputs); a candidate whose own CUDA kernels do not
run (torch fallback) fails; float64 reference: the reference Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p82fi as fi  # noqa: E402

TOL = {"rtol": 1e-3, "atol": 1e-8}
make_inputs, build, reference = fi.adapter(__file__, [(2048, 16384)])
