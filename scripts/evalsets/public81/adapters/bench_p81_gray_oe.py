"""Adapter of p81-gray-oe (kforecast's own code): GPU MODE grayscale at 4096 x 4096, the reference
(the leaderboard's ref_kernel) and OpenEvolve programs (Triton), each called through its KFORECAST
kf_run(rgb, output) = custom_kernel((rgb, output)). Inputs, float64 reference, tolerance and the
build are _p81gray.py's (in the set's root)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p81gray as gray  # noqa: E402

SIZE = 4096
TOL = gray.TOL
reference = gray.reference
build = gray.build


def make_inputs(seed):
    return gray.make_inputs(SIZE, seed)
