"""Adapter of p10-kt-reduction (kforecast's own code).

Each version is a .cu program: Kernel Tuner's reduction example (first kernel) at one point
of its tuning space, with `extern "C" kf_run(partials, array, n)` and `kf_num_blocks()`.
As reduction.py's verify does, the partial sums are summed afterwards (here in torch)."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p10common as c  # noqa: E402

N = 1 << 26
TOL = {"rtol": 1e-5, "atol": 1.0}  # a float32 sum of ~3.4e7 in different orders


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g),)  # reduction.py: numpy.random.rand


def build(path):
    lib = c.cuda_lib(path)
    run = lib.kf_run
    run.restype = ctypes.c_int
    run.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    lib.kf_num_blocks.restype = ctypes.c_int
    num_blocks = int(lib.kf_num_blocks())

    def fn(x):
        partials = torch.empty(num_blocks, device=x.device, dtype=torch.float32)
        c.check(run(c.ptr(partials), c.ptr(x), x.numel()), path)
        return partials.sum(dtype=torch.float64).reshape(1)

    return fn


def reference(x):
    return x.double().sum().reshape(1)
