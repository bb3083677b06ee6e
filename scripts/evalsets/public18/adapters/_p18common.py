"""Shared by the public18 adapters (kforecast's own code): builds a version (a .cu program
with host code and an `extern "C" kf_run` entry point) with the set's vendored CUDA
Handbook headers on the include path, and checks kf_run's status."""
import ctypes
import os

from progbuild import nvcc_library

SET = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET, "_vendor")
HBOOK = [os.path.join("cudahandbook", d) for d in ("chLib", "histogram", "nbody", "scan/int", "scan")]
VIPER = [os.path.join("viperekura", "include")]
BITONIC = [os.path.join("bitonic", "include")]


def build_lib(path, argtypes, includes, libs=()):
    """nvcc -O3 -std=c++17 -I<each of `includes`, under _vendor/> PATH -l<libs>, loaded with
    ctypes; returns its kf_run."""
    flags = ["-O3", "-std=c++17", "-Xlinker", "-Bsymbolic"]
    for d in includes:
        flags += ["-I", os.path.join(VENDOR, d)]
    if libs:  # linked for good even where the host linker defaults to --as-needed
        flags += ["-Xlinker", "--no-as-needed"] + [f"-l{x}" for x in libs]
    lib = nvcc_library(path, flags=flags)
    run = lib.kf_run
    run.restype = ctypes.c_int
    run.argtypes = argtypes
    return run


def check(rc, path):
    if rc != 0:
        raise RuntimeError(f"{os.path.basename(path)}: kf_run returned CUDA error {rc}")


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())
