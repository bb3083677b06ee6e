"""Adapter of p78-ib-sigmoid (kforecast's own code): sigmoid on fp32 x (4096, 16384) normal.
See _p78ib.py: the reference runs the KernelBench problem's Model, a candidate its ModelNew,
each through its KFORECAST kf_run(model, *inputs); a candidate whose own CUDA kernels do not
run (torch fallback) fails; float64 reference: the reference Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p78ib as ib  # noqa: E402

TOL = {"rtol": 1e-3, "atol": 1e-3}
make_inputs, build, reference = ib.adapter(__file__, [(4096, 16384)])
