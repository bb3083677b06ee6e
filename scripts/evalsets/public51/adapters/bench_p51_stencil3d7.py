"""Adapter of p51-ku-stencil3d7 (kforecast's own code): 3-D 7-point stencil, 256^3 floats + halo 1, 100 steps.
Coefficients drawn in [0.95, 1.05] x 0.14 per point.
The shared steps are in _p51stencil.py (beside the families)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p51stencil as st  # noqa: E402

TOL = st.TOL
make_inputs, reference, build = st.family(
    shape=(256, 256, 256), value_range=10.0, coef=0.14, per_point=True,
    offs=[(-1, 0, 0), (0, -1, 0), (0, 0, -1), (0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)])
