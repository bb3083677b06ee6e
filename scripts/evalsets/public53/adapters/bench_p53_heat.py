"""Adapter of p53-enccs-heat (kforecast's own code): one step of the 2-D heat equation on the
course's default 2000 x 2000 grid with its halo (2002 x 2002 float64, values uniform in
[5, 85]), a = 0.5, dx = dy = 0.01, dt as main_cuda.py computes it. The current field starts as a
copy of the previous one (the source's deepcopy: the kernels never write the halo); the
version's KFORECAST kf_run wraps both tensors (numba or CuPy view) and calls its evolve()."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p53common as kf  # noqa: E402

NX = NY = 2002
A_DIFF = 0.5
DX2 = DY2 = 0.01 * 0.01
DT = DX2 * DY2 / (2.0 * A_DIFF * (DX2 + DY2))
# The CuPy port passes a, dt, dx2, dy2 as float32 (its RawKernel's float parameters).
TOL = {"rtol": 1e-6, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (5.0 + 80.0 * torch.rand(NX, NY, device="cuda", dtype=torch.float64, generator=g),)


def reference(prev):
    cur = prev.clone()
    p = prev
    cur[1:-1, 1:-1] = p[1:-1, 1:-1] + A_DIFF * DT * (
        (p[2:, 1:-1] - 2 * p[1:-1, 1:-1] + p[:-2, 1:-1]) / DX2
        + (p[1:-1, 2:] - 2 * p[1:-1, 1:-1] + p[1:-1, :-2]) / DY2)
    return cur


def build(path):
    mod = kf.module(path, numba_cuda=True)

    def fn(prev):
        cur = prev.clone()
        mod.kf_run(cur, prev, A_DIFF, DT)
        return cur

    return fn
