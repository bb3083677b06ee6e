"""Adapter of p5-pmpp-conv1d (kforecast's own code): 1-D convolution of 2^26 floats with a
5-wide mask, zero padding, output clamped to [0, 1]; 512 threads a block."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import p5common as kf  # noqa: E402

N, MASK, BLOCK = 1 << 26, 5, 512
TOL = {"rtol": 1e-5, "atol": 1e-6}


def make_inputs(seed):
    g = kf.generator(seed)
    x = torch.rand(N, device="cuda", generator=g)
    m = torch.rand(MASK, device="cuda", generator=g)
    return (x, m / m.sum())


def reference(x, m):
    y = F.conv1d(x.double()[None, None], m.double()[None, None], padding=MASK // 2)[0, 0]
    return y.clamp(0.0, 1.0)


def build(path):
    run = kf.kf_run(path, [ctypes.c_void_p] * 3 + [ctypes.c_size_t] * 3)

    def fn(x, m):
        out = torch.empty_like(x)
        kf.check(run(kf.ptr(x), kf.ptr(m), kf.ptr(out), N, MASK, BLOCK), path)
        return out

    return fn
