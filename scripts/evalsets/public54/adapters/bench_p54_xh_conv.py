"""Adapter of p54-xh-conv (kforecast's own code): valid 2-D cross-correlation of a
1024 x 1024 fp32 image with a 3 x 3 filter, output 1022 x 1022. kf_run(input, filter,
output, col, H, W, K) is main()'s sizes, grid and launch lines for one kernel (the im2col
version's column buffer, 9 x 1022^2 floats, is passed to every version; only it uses it)."""
import ctypes

import torch
import torch.nn.functional as F
from progbuild import nvcc_library, ptr

H = W = 1024
K = 3
OH, OW = H - K + 1, W - K + 1
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand((H, W), device="cuda", generator=g)
    f = torch.rand((K, K), device="cuda", generator=g) / (K * K)
    out = torch.empty((OH, OW), device="cuda")
    col = torch.empty((K * K, OH * OW), device="cuda")
    return (x, f, out, col)


def reference(x, f, out, col):
    return F.conv2d(x.double()[None, None], f.double()[None, None])[0, 0]


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_int] * 3

    def fn(x, f, out, col):
        lib.kf_run(ptr(x), ptr(f), ptr(out), ptr(col), H, W, K)
        return out
    return fn
