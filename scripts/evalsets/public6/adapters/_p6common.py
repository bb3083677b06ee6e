"""Helpers shared by public set 6's adapters (kforecast's own code, copied into the set).

An adapter (`<family>/bench.py`) imports this module from the set's root. CUDA programs
are compiled by the harness's `progbuild.nvcc_library` (cached by content) and called
through their `extern "C" kf_run`; Python programs are imported by `progbuild.load_program`
with the set's `_vendor/` folder first on sys.path."""

import ctypes
import os
import sys

import torch
from progbuild import load_program, nvcc_library, ptr  # noqa: F401  (the harness puts progbuild on sys.path)

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET_ROOT, "_vendor")
NVCC_FLAGS = ("-O3", "-std=c++17")


def cuda_entry(path, nargs_ptr, nargs_int=0):
    """The program's kf_run(pointers..., ints...) -> int (a CUDA error code)."""
    run = nvcc_library(path, flags=NVCC_FLAGS).kf_run
    run.restype = ctypes.c_int
    run.argtypes = [ctypes.c_void_p] * nargs_ptr + [ctypes.c_int] * nargs_int
    return run


def check(rc, path):
    if rc != 0:
        raise RuntimeError(f"{os.path.basename(path)}: kf_run returned CUDA error {rc}")


def gen(seed):
    return torch.Generator(device="cuda").manual_seed(seed)


def python_program(path):
    if VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)
    return load_program(path)
