"""Adapter of p3-gpumode-cholesky (kforecast's own code): GPU MODE's batched Cholesky
reference and submissions, called as the problem's eval does (custom_kernel(data)); the
input is the reference's own generate_input at one task.yml benchmark size."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "_vendor", "pub3"))
import torch  # noqa: E402

import p3common as p3  # noqa: E402

BATCH, N, COND = 2, 2048, 2
TOL = {"rtol": 1e-3, "atol": 1e-3}  # factors of a well-conditioned SPD matrix by other algorithms


def make_inputs(seed):
    ref = p3.python_program(os.path.join(HERE, "reference.py"), "gpumode-cholesky")
    return (ref.generate_input(BATCH, N, COND, seed),)


def build(path):
    m = p3.python_program(path, "gpumode-cholesky")
    f = m.ref_kernel if os.path.basename(path) == "reference.py" else m.custom_kernel
    return lambda a: f(a)
