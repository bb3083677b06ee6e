"""Adapter of p82-fi-matmul (kforecast's own code): C = A @ B, fp32 A, B (4096, 4096) normal.
See _p82fi.py: the reference runs the KernelBench problem's Model, a candidate its ModelNew,
each through its KFORECAST kf_run(model, *inputs); a candidate whose own CUDA kernels do not
run (torch fallback) fails; float64 reference: the reference Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p82fi as fi  # noqa: E402

TOL = {"rtol": 1e-3, "atol": 2e-2}
make_inputs, build, reference = fi.adapter(__file__, [(4096, 4096), (4096, 4096)])
