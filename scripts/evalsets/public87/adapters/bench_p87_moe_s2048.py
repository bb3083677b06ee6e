"""Adapter of p87-moe-s2048 (kforecast's own code): GPU MODE amd-mixture-of-experts at the problem's
first benchmark shape (d_hidden 7168, d_expert 2048, 32 routed experts, top 4, one shared expert,
bs 1, seqlen 2048, fp16; its benchmark seed 9371, the check draws add the harness's seed). Inputs from
the problem's own generate_input; each version's kf_run(data) is the leaderboard's call. The
float64 reference, the tolerance and the build are _p87moe.py's."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p87moe as moe  # noqa: E402

CFG = dict(dhidden=7168, dexpert=2048, nroutedexperts=32, nsharedexperts=1, nexpertspertoken=4, bs=1,
           seqlen=2048)
SEED = 9371
TOL = moe.TOL
reference = moe.reference
build = moe.build


def make_inputs(seed):
    return moe.make_inputs(HERE, CFG, SEED, seed)
