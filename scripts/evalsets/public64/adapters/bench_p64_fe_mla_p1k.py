"""Adapter of p64-fe-mla-p1k (kforecast's own code): GPU MODE MLA decode (DeepSeek-V3 sizes), each
version's kf_run(data) (the leaderboard's custom_kernel(data)) on the problem's own
generate_input(batchsize=16, dim=7168, dq=1536, prefill=1024, seed) from its reference.py (the
problem's benchmarks use batch 128; seed 9817 is a benchmark's, the check draws add the harness's).
The cache reset, the compared outputs and the float64 reference are _p64mla.py's."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p64mla as mla  # noqa: E402

BATCH, PREFILL, SEED = 16, 1024, 9817
TOL = mla.TOL


def make_inputs(seed):
    return mla.make_inputs(HERE, BATCH, PREFILL, SEED, seed)


def reference(config, x, kv_cache):
    return mla.reference(HERE, PREFILL, config, x, kv_cache)


def build(path):
    return mla.build(path, PREFILL)
