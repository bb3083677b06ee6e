"""Adapter of p64-fe-trimul-s512 (kforecast's own code): GPU MODE TriMul, each version's
kf_run(data) (the leaderboard's custom_kernel(data); ref_kernel(data) for reference.py) on the
problem's own generate_input(seqlen=512, bs=1, dim=128, hiddendim=128, no mask, normal; its benchmark uses seed 12819, the
check draws add the harness's seed). The float64 reference and the build are _p64tri.py's; see
_p64fe.py for the loading and the isolation of matmul settings."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p64tri as tri  # noqa: E402

CFG = dict(seqlen=512, bs=1, dim=128, hiddendim=128, nomask=True, distribution="normal")
SEED = 12819
TOL = tri.TOL
reference = tri.reference
build = tri.build


def make_inputs(seed):
    return tri.make_inputs(HERE, CFG, SEED, seed)
