"""Adapter of p86-kb-logsoftmax (kforecast's own code): LogSoftmax over dim 1 on fp32 x (256,
393216) uniform [0, 1) (the fork's problem 24: batch 4096, cut to 256). See _p86kb.py: the
reference runs the problem's Model, a candidate the agent round's CUDA wrapper, each through its
KFORECAST kf_run(x); a candidate whose own CUDA kernels do not run fails; float64 reference: the
Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p86kb as kb  # noqa: E402

TOL = {"rtol": 1e-4, "atol": 1e-4}
make_inputs, build, reference = kb.adapter(__file__, (256, 393216))
