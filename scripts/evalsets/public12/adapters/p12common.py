"""Helpers shared by public set 12's adapters (kforecast's own code, copied into the set).

A CUDA version is a .cu program with an `extern "C" int kf_run(...)` entry point; `entry()`
compiles it with nvcc (through the harness's progbuild, cached by content) and returns that
function with its argument types set."""
import ctypes
import os

from progbuild import nvcc_library, ptr  # noqa: F401  (the harness puts progbuild on sys.path)

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET_ROOT, "_vendor")


def entry(path, argtypes, includes=()):
    flags = ["-O3", "-std=c++17", *[f"-I{os.path.join(VENDOR, i)}" for i in includes]]
    lib = nvcc_library(path, flags=tuple(flags))
    fn = lib.kf_run
    fn.restype = ctypes.c_int
    fn.argtypes = list(argtypes)
    return fn


def check(rc, path):
    if rc != 0:
        raise RuntimeError(f"{os.path.basename(path)}: kf_run returned CUDA error {rc}")
