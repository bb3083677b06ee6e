"""Adapter of p3-int-reduce (kforecast's own code): the shfl post's integer sums."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "_vendor", "pub3"))
import torch  # noqa: E402

import p3common as p3  # noqa: E402

N = 1 << 25
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 4, (N,), device="cuda", generator=g, dtype=torch.int32),)  # rand()%4


def reference(x):
    return x.double().sum().reshape(1)


def build(path):
    from progbuild import ptr

    run = p3.cuda_program(path, include="shfl-reduce")
    run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

    def fn(x):
        out = torch.empty(1024, device=x.device, dtype=torch.int32)  # RunTest's out: 1024 ints
        p3.check(run(ptr(x), ptr(out), x.numel()), path)
        return out[:1]

    return fn
