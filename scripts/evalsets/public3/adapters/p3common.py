"""Helpers of the "p3-" adapters of evaluation set public3 (kforecast's own code, copied
into the set as _vendor/pub3/p3common.py).

An adapter (`<family>/bench.py`) puts `_vendor/pub3` on sys.path and imports this. It
compiles a CUDA program file (kernel + the source's host code + a KFORECAST kf_run entry
point) with the harness's `progbuild.nvcc_library`, and imports a Python program (a GPU
MODE reference or submission) with its problem's vendored `task.py` / `utils.py` on the
path, through `progbuild.load_program`.
"""

import ctypes
import os
import sys

VENDOR = os.path.dirname(os.path.abspath(__file__))


def cuda_program(path, include=None, flags=()):
    """The program at `path` compiled into a shared library; returns its kf_run."""
    from progbuild import nvcc_library

    fl = ["-O3", "-std=c++17", *flags]
    if include:
        fl += ["-I", os.path.join(VENDOR, include)]
    run = nvcc_library(path, flags=tuple(fl)).kf_run
    run.restype = ctypes.c_int
    return run


def check(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what}: kf_run returned CUDA error {rc}")


def python_program(path, problem_dir="gpumode-pmpp"):
    from progbuild import load_program

    d = os.path.join(VENDOR, problem_dir)
    if d not in sys.path:
        sys.path.insert(0, d)
    return load_program(path)
