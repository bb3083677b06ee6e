"""Adapter of p30-cy-upsample (kforecast's own code): nearest-neighbour 2x upsampling of a
1024 x 1024 float image to 2048 x 2048; kf_run(input, output) holds main()'s grid lines
and launch."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

H = W = 1024
TOL = {"rtol": 0, "atol": 0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.rand(H * W, device="cuda", generator=g)
    out = torch.empty(4 * H * W, device="cuda")
    return (x, out)


def reference(x, out):
    img = x.double().reshape(H, W)
    return img.repeat_interleave(2, 0).repeat_interleave(2, 1).reshape(-1)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p]

    def fn(x, out):
        lib.kf_run(ptr(x), ptr(out))
        return out
    return fn
