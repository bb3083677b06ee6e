"""Helpers shared by public set 17's adapters (kforecast's own code, copied into the set).

CUDA programs (a source file less main() plus a `kf_run` entry point) are compiled with
nvcc into a shared library through the harness's progbuild; GPU MODE submissions are
imported as fresh modules with the set's `_vendor/` (the `task` module) on sys.path.
"""
import ctypes
import os
import sys

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET_ROOT, "_vendor")

import progbuild  # noqa: E402  (beside measure_programs.py, on sys.path)


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def cuda_entry(path):
    """The program's kf_run from its compiled library."""
    lib = progbuild.nvcc_library(path, flags=("-O3", "-std=c++17"))
    return lib.kf_run


def custom_kernel(path):
    """A GPU MODE submission's custom_kernel."""
    if VENDOR not in sys.path:
        sys.path.insert(0, VENDOR)
    return progbuild.load_program(path).custom_kernel
