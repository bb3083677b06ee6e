"""Adapter of p74-qr-n352 (kforecast's own code): GPU MODE qr_v2 at its ranked benchmark shape batch 40 x 352 x 352,
dense, cond 0, seed 102 + draw (the problem's generate_input, the seeds of the author's bench_grader.py); each
version's KFORECAST kf_run(A), the leaderboard's call custom_kernel(A) (ref_kernel(A) for the reference), output
(H, tau); float64 reference torch.geqrf. See _p74qr.py."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p74qr as kf  # noqa: E402

TOL = kf.TOL
reference = kf.reference
make_inputs, build = kf.qr_adapter(batch=40, n=352, cond=0, seed0=102)
