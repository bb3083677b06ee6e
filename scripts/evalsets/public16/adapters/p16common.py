"""Helpers shared by the adapters of public set 16 (kforecast's own code, copied into the set
root by scripts/evalsets/public16/pub16.py). Builds go through the harness's progbuild
(nvcc_library, ptr), which measure_programs.py puts on sys.path.

- `inplace_u32(path, include)`: a CUDA program whose KFORECAST `kf_run(uint32_t*, uint32_t)`
  works in place on a buffer of 32-bit words (the scans and sorts), as fn(x) -> x.
"""

import ctypes
import os

from progbuild import nvcc_library, ptr

SET_ROOT = os.path.dirname(os.path.abspath(__file__))
VENDOR = os.path.join(SET_ROOT, "_vendor")


def check(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what}: CUDA error {rc}")


def inplace_u32(path, include):
    lib = nvcc_library(path, flags=("-O3", "-std=c++17", "-I", os.path.join(VENDOR, include)))
    run = lib.kf_run
    run.restype = ctypes.c_int
    run.argtypes = [ctypes.c_void_p, ctypes.c_uint32]

    def fn(x):
        check(run(ptr(x), x.numel()), path)
        return x

    return fn
