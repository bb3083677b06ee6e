"""Adapter of p18-viper-conv2d (kforecast's own code): input [32, 256, 14, 14] fp32, 256
filters 3x3, stride 1, padding 1 (a size of the suite's conv2d_bench.py); output
[32, 256, 14, 14]."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p18common as kf  # noqa: E402

N, C, H, W, K, R, S, U, V, P, Q = 32, 256, 14, 14, 256, 3, 3, 1, 1, 1, 1
OH, OW = (H - R + 2 * P) // U + 1, (W - S + 2 * Q) // V + 1
TOL = {"rtol": 1e-3, "atol": 5e-2}  # fp32 sums of 2304 products (Winograd transforms round more)


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(N, C, H, W, device="cuda", generator=g)
    w = torch.randn(K, C, R, S, device="cuda", generator=g)
    return x, w


def reference(x, w):
    return torch.nn.functional.conv2d(x.double(), w.double(), stride=(U, V), padding=(P, Q))


def build(path):
    run = kf.build_lib(path, [ctypes.c_void_p] * 3 + [ctypes.c_int] * 11, kf.VIPER)

    def fn(x, w):
        out = torch.empty(N, K, OH, OW, device=x.device, dtype=torch.float32)
        kf.check(run(kf.ptr(x), kf.ptr(w), kf.ptr(out), N, C, H, W, K, R, S, U, V, P, Q), path)
        return out

    return fn
