"""Adapter of p3-transpose (kforecast's own code): the blog's transpose kernels."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pub3"))
import torch  # noqa: E402

import p3common as p3  # noqa: E402

NX = NY = 8192
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(NY, NX, device="cuda", generator=g),)


def reference(x):
    return x.t().contiguous()


def build(path):
    from progbuild import ptr

    run = p3.cuda_program(path)
    run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int]

    def fn(x):
        out = torch.empty(x.shape[1], x.shape[0], device=x.device, dtype=x.dtype)
        p3.check(run(ptr(out), ptr(x), x.shape[1], x.shape[0]), path)
        return out

    return fn
