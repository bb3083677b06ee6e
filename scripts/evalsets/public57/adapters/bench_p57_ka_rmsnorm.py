"""Adapter of p57-ka-rmsnorm (kforecast's own code): RMSNorm over channels, eps 1e-5, x (4, 64, 512, 512) bf16 uniform [0, 1) (batch 112 cut to 4).
See _p57ka.py: the reference version runs the problem's Model in bf16, a kernel version its KFORECAST
kf_run with the Model's parameters bound as the artifacts' benchmark.py does; float64 reference: the
Model in float64 on the same bf16-rounded inputs and weights."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p57ka as ka  # noqa: E402

TOL = {"rtol": 2e-2, "atol": 1e-2}
make_inputs, build, reference = ka.adapter(__file__, [(4, 64, 512, 512)])
