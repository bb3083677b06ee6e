"""Adapter of p17-dw-stencil3d (kforecast's own code): a 256^3 float grid."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p17common as kf  # noqa: E402

N = 256
TOL = {"rtol": 1e-4, "atol": 1e-4}
C = (0.02, 0.52, 0.25, 0.12, 0.89, 0.37, 0.93)


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, N, N, device="cuda", generator=g),)


def reference(x):
    x = x.double()
    c = x[1:-1, 1:-1, 1:-1]
    return (C[0] * c + C[1] * x[1:-1, 1:-1, :-2] + C[2] * x[1:-1, 1:-1, 2:]
            + C[3] * x[1:-1, :-2, 1:-1] + C[4] * x[1:-1, 2:, 1:-1]
            + C[5] * x[:-2, 1:-1, 1:-1] + C[6] * x[2:, 1:-1, 1:-1])


def build(path):
    run = kf.cuda_entry(path)

    def fn(x):
        out = torch.empty_like(x)
        run(kf.ptr(x), kf.ptr(out), ctypes.c_uint(N))
        return out[1:-1, 1:-1, 1:-1]

    return fn
