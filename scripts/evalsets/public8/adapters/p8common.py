"""Helpers shared by public set 8's adapters (kforecast's own code, copied into the set as
_p8common.py). The harness puts scripts/evalsets/ on sys.path, so progbuild is importable."""
import ctypes
import os

from progbuild import load_program, nvcc_library, ptr  # noqa: F401

FLAGS = ("-O3", "-std=c++17")


def entry(path, n_ptrs, n_ints):
    """The kf_run entry point of the CUDA program at `path`: n_ptrs pointers then n_ints ints."""
    run = nvcc_library(path, flags=FLAGS).kf_run
    run.restype = ctypes.c_int
    run.argtypes = [ctypes.c_void_p] * n_ptrs + [ctypes.c_int] * n_ints
    return run


def check(rc, path):
    if rc != 0:
        raise RuntimeError(f"{os.path.basename(path)}: kf_run returned CUDA error {rc}")


def torch_function(path, name):
    return getattr(load_program(path), name)


def gen(seed):
    import torch

    return torch.Generator(device="cuda").manual_seed(seed)


def is_cuda_program(path):
    return path.endswith(".cu")

