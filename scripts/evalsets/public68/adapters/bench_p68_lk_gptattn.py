"""Adapter of p68-lk-gptattn (kforecast's own code): minGPT causal self-attention, n_embd 768, 8 heads, dropout 0, fp32 x (16, 512, 768) uniform [0, 1) (batch 128 cut to 16); TF32 tl.dot, hence the tolerance.
See _p68lk.py: the reference version runs the problem's Model, a candidate its ModelNew with the
Model's weights copied in by shape, each through its KFORECAST kf_run(model, x); float64
reference: the Model in float64 on the same inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _p68lk as lk  # noqa: E402

TOL = {"rtol": 1e-2, "atol": 1e-2}
make_inputs, build, reference = lk.adapter(__file__, (16, 512, 768))
