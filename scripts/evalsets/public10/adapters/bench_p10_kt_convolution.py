"""Adapter of p10-kt-convolution (kforecast's own code).

Each version is a .cu program: Kernel Tuner's convolution example at one point of its tuning
space (its #defines first), one kernel, and an `extern "C" kf_run(output, input, filter)`."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p10common as c  # noqa: E402

H = W = 4096          # image_height, image_width
FH = FW = 17          # filter_height, filter_width
IN_H, IN_W = H + (FH // 2) * 2, W + (FW // 2) * 2
TOL = {"rtol": 1e-4, "atol": 2e-3}  # float32 sums of 289 products of N(0,1) values


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    inp = torch.randn(IN_H * IN_W, device="cuda", generator=g)
    filt = torch.randn(FH * FW, device="cuda", generator=g)
    return (inp, filt)


def build(path):
    lib = c.cuda_lib(path)
    run = lib.kf_run
    run.restype = ctypes.c_int
    run.argtypes = [ctypes.c_void_p] * 3

    def fn(inp, filt):
        out = torch.empty(H * W, device=inp.device, dtype=torch.float32)
        c.check(run(c.ptr(out), c.ptr(inp), c.ptr(filt)), path)
        return out

    return fn


def reference(inp, filt):
    x = inp.double().view(1, 1, IN_H, IN_W)
    f = filt.double().view(1, 1, FH, FW)
    return torch.nn.functional.conv2d(x, f).flatten()
