"""Adapter of p34-mb-padded-permute and p34-mb-binned-permute (kforecast's own code; which one
by the name of the family folder it is copied into): MegaBlocks' Triton padded (or binned) gather
then weighted scatter, bf16, tokens 16384, hidden 4096, 8 experts, top-k 2, experts drawn
uniformly at random and sorted as MegaBlocks sorts them (int32 indices and bin ids), router
weights bf16 in [0, 1], expert outputs y standard normal. Outputs: the gathered rows (unused
rows zero) and the weighted sums per token. Float64 reference: the same copies and sums.
build() makes one warm-up call on a small routing first (see _p34common.mb_build)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p34common as kf  # noqa: E402

BINNED = "binned" in os.path.basename(HERE)
TOL = kf.MB_TOL
reference = kf.binned_reference if BINNED else kf.padded_reference


def make_inputs(seed):
    return kf.routing(seed, binned=BINNED)


def build(path):
    return kf.mb_build(path, binned=BINNED)
