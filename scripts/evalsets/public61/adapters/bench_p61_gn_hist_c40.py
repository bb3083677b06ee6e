"""Adapter of p61-gn-hist-c40 (kforecast's own code): GPU MODE histogram_v2 at 2^28 uint8 elements,
contention 40%, seed 3411 + draw; each version's `kf_run(data, output)`, output the 256 int64
counts; float64 reference torch.bincount. See _p61hist.py."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p61hist as kf  # noqa: E402

TOL = kf.TOL
reference = kf.reference
make_inputs, build = kf.hist_adapter(HERE, size=1 << 28, contention=40, seed0=3411)
