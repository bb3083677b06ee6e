"""Helpers shared by public set 5's adapters (kforecast's own code, copied into the set).

An adapter (`<family>/bench.py`) imports this module from the set's root. CUDA programs are
compiled by the harness's `progbuild.nvcc_library` (cached by content) and called through
their `extern "C" kf_run`; Python programs are imported by `progbuild.load_program`."""

import ctypes
import functools
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

from progbuild import load_program, nvcc_library, ptr  # noqa: E402,F401


def kf_run(path, argtypes):
    """The `kf_run` entry of the CUDA program at `path`, compiled with nvcc -O3."""
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    run = lib.kf_run
    run.restype = ctypes.c_int
    run.argtypes = argtypes
    return run


def check(rc, path):
    if rc != 0:
        raise RuntimeError(f"{os.path.basename(path)}: kf_run returned CUDA error {rc}")


def generator(seed):
    return torch.Generator(device="cuda").manual_seed(seed)


def load_python(path):
    """Imports a Python program. kernl's modules still import torch.cuda.amp.custom_fwd,
    which newer torch releases dropped: give them torch.amp's, for CUDA, where it is missing."""
    amp = torch.cuda.amp
    if not hasattr(amp, "custom_fwd"):
        amp.custom_fwd = functools.partial(torch.amp.custom_fwd, device_type="cuda")
    return load_program(path)
