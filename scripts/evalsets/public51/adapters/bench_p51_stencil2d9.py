"""Adapter of p51-ku-stencil2d9 (kforecast's own code): 2-D 9-point stencil, 4096 x 4096 floats + halo 1, 100 steps.

The source's own coefficients: 0.11 at every point and neighbour. Its shuffle kernels pair
coefficient l with the transposed neighbour of Stencil_Cuda's (l = 1: (j-1, i) where Stencil_Cuda
has (j, i-1)), so with coefficients drawn per point they compute another stencil (rel L2 1.3e-3
off after 100 steps, H100 2026-11-27); with the source's uniform coefficients every kernel
computes the same one.
The shared steps are in _p51stencil.py (beside the families)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import _p51stencil as st  # noqa: E402

TOL = st.TOL
make_inputs, reference, build = st.family(
    shape=(4096, 4096), value_range=100.0, coef=0.11, per_point=False,
    offs=[(-1, -1), (0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1), (1, 1)])
