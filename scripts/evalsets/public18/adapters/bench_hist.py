"""Adapter of p18-hbook-histogram (kforecast's own code): a 4096x4096 image of random
bytes (histogram.cu's --random 256 --padWidth 4096 --padHeight 4096), 256 uint32 bins."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p18common as kf  # noqa: E402

W = H = 4096


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 256, (H * W,), device="cuda", dtype=torch.uint8, generator=g),)


def reference(img):
    return torch.bincount(img.long(), minlength=256).to(torch.int32)


def build(path):
    run = kf.build_lib(path, [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int], kf.HBOOK)

    def fn(img):
        hist = torch.empty(256, device=img.device, dtype=torch.int32)
        kf.check(run(kf.ptr(hist), kf.ptr(img), W, H), path)
        return hist

    return fn
