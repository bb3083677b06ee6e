"""Helpers of the public14 adapters (kforecast's own code, copied into the set as
_p14common.py): compile a version's .cu program (host code included) with nvcc into a shared
library through the harness's progbuild (cached by content) and declare its kf_run."""

import ctypes
import os

from progbuild import nvcc_library, ptr, stream  # noqa: F401  (the harness puts it on sys.path)


def load(path, restype=None):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17"))
    lib.kf_run.restype = restype
    return lib


def check_launch():
    """Raises on a launch error left by kf_run (bad configuration, device assert) where torch
    exposes cudaGetLastError; elsewhere an unlaunched kernel shows as unwritten (poisoned) output."""
    import torch

    get_last = getattr(torch.cuda.cudart(), "cudaGetLastError", None)
    if get_last is None:
        return
    err = get_last()
    if int(err) != 0:
        raise RuntimeError(f"CUDA error {int(err)} after kf_run")


c_int = ctypes.c_int


def load_extension(path):
    """A torch-extension version (.cu with its PYBIND11_MODULE) built with torch's load and
    C++20, as the source's CMakeLists builds it; a .py version imported as a fresh module."""
    from progbuild import cache_dir, file_hash, load_program

    if path.endswith(".py"):
        return load_program(path)
    from torch.utils.cpp_extension import load as torch_load

    name = "p14_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_") + "_" + file_hash(path)
    return torch_load(name=name, sources=[path], build_directory=cache_dir("ext", name),
                      extra_cuda_cflags=["-O3", "-std=c++20"], extra_cflags=["-O3", "-std=c++20"],
                      verbose=bool(os.environ.get("EVALSET_VERBOSE")))
