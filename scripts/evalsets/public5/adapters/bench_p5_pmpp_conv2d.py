"""Adapter of p5-pmpp-conv2d (kforecast's own code): 2-D convolution of an 8192 x 8192 float
image (one channel) with a 5 x 5 mask, zero padding, output clamped to [0, 1]; 16 x 16 blocks."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import p5common as kf  # noqa: E402

AXIS, CHANNELS, MASK, BLOCK = 8192, 1, 5, 16
TOL = {"rtol": 1e-5, "atol": 1e-6}


def make_inputs(seed):
    g = kf.generator(seed)
    x = torch.rand(AXIS, AXIS, device="cuda", generator=g)
    m = torch.rand(MASK, MASK, device="cuda", generator=g)
    return (x, m / m.sum())


def reference(x, m):
    y = F.conv2d(x.double()[None, None], m.double()[None, None], padding=MASK // 2)[0, 0]
    return y.clamp(0.0, 1.0)


def build(path):
    run = kf.kf_run(path, [ctypes.c_void_p] * 3 + [ctypes.c_size_t] * 4)

    def fn(x, m):
        out = torch.empty_like(x)
        kf.check(run(kf.ptr(x), kf.ptr(m), kf.ptr(out), AXIS, CHANNELS, MASK, BLOCK), path)
        return out

    return fn
