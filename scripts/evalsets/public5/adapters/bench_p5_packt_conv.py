"""Adapter of p5-packt-conv (kforecast's own code): 2-D convolution (cross-correlation,
zero padding) of a 4096 x 4096 float image with a 9 x 9 filter."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import p5common as kf  # noqa: E402

ROWS = COLS = 4096
FS = 9
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = kf.generator(seed)
    img = torch.rand(ROWS, COLS, device="cuda", generator=g)
    filt = torch.rand(FS, FS, device="cuda", generator=g)
    return (img, filt / filt.sum())


def reference(img, filt):
    return F.conv2d(img.double()[None, None], filt.double()[None, None], padding=FS // 2)[0, 0]


def build(path):
    run = kf.kf_run(path, [ctypes.c_void_p] * 3 + [ctypes.c_int] * 3)

    def fn(img, filt):
        out = torch.empty_like(img)
        kf.check(run(kf.ptr(out), kf.ptr(img), kf.ptr(filt), ROWS, COLS, FS), path)
        return out

    return fn
