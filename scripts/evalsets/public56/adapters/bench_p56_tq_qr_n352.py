"""Adapter of p56-tq-qr-n352 (kforecast's own code): GPU MODE qr_v2 at its benchmark shape batch 40 x 352 x 352,
cond 1, seed 123456 + draw (the problem's generate_input); each version's `custom_kernel(A)` (the
reference version's `ref_kernel`), output (H, tau); float64 reference torch.geqrf. See _p56qr.py."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p56qr as kf  # noqa: E402

TOL = kf.TOL
reference = kf.reference
make_inputs, build = kf.qr_adapter(HERE, batch=40, n=352, cond=1, seed0=123456)
