"""Adapter of p53-softmax-rows (kforecast's own code): softmax over dim 1 of x 1024 x 32768
float32 (torch.randn), the size of VachanVY's torch_softmax.py. A `.cu` version is built with
nvcc -shared (progbuild.nvcc_library) and its extern "C" softmax(x, out, A, B) called through
ctypes as torch_softmax.py's my_softmax calls it; a Python version is imported and its own
launcher called: torch_softmax(x) (returns (out, ms)), softmax(A) (romitjain's Triton), or the
KFORECAST kf_run(x) of VachanVY's Triton Puzzles long softmax."""
import ctypes
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import progbuild  # noqa: E402
import torch  # noqa: E402

import _p53common as kf  # noqa: E402

A, B = 1024, 32768
TOL = {"rtol": 1e-3, "atol": 1e-8}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(A, B, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=1)


def build(path):
    if path.endswith(".cu"):
        lib = progbuild.nvcc_library(path)
        lib.softmax.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_size_t]

        def fn(x):
            out = torch.empty_like(x)
            a, b = x.shape
            lib.softmax(ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(out.data_ptr()), a, b)
            return out

        return fn
    mod = kf.module(path)
    if hasattr(mod, "kf_run"):
        return lambda x: mod.kf_run(x)
    if hasattr(mod, "torch_softmax"):
        return lambda x: mod.torch_softmax(x)[0]
    return lambda x: mod.softmax(x)
