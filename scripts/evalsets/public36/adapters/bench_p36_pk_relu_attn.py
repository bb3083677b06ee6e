"""Adapter of p36-pk-relu-attn (kforecast's own code): KernelBench level-3 (METR) task 50,
ReLUSelfAttention, x (16, 1024, 768) (the task file's get_inputs sizes). Each version's model is
built as PIKE's evaluator builds it (_p36common.kb_build); tolerance KernelBench's and PIKE's
own (atol = rtol = 1e-2), against the reference version and the task's Model in float64."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from _p36common import TOL_KB as TOL, kb_entry  # noqa: E402,F401

make_inputs, reference, build = kb_entry(HERE)
