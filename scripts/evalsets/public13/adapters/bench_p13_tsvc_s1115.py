"""Adapter of p13-tsvc-s1115 (kforecast's own code): aa = aa * cc^T + bb on 4096x4096 floats
(uniform in [0, 1), so that repeated in-place runs stay bounded)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p13common as kf  # noqa: E402

LEN_2D = 4096
TOL = {"rtol": 1e-5, "atol": 1e-5}


def make_inputs(seed):
    g = kf.generator(seed)
    return tuple(torch.rand(LEN_2D, LEN_2D, device="cuda", generator=g) for _ in range(3))


def reference(aa, bb, cc):
    return aa.double() * cc.double().T + bb.double()


def build(path):
    return kf.tsvc_function(path, "s1115")
