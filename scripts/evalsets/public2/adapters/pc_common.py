"""Helpers shared by the "pc-" adapters (kforecast's own code). The builder copies this file
to SET/_vendor/pubcuda/pc_common.py; an adapter imports it from there.

Every "pc-" program has the same entry point,
    extern "C" long long kf_run(void *in0, void *in1, void *out, void *scratch, long long m, long long n)
which runs main()'s launch of the program's kernel and returns how many output elements it
wrote, or a negative CUDA error."""
import ctypes
import os

from progbuild import nvcc_library, ptr

VENDOR = os.path.dirname(os.path.abspath(__file__))
BOOK_INCLUDE = os.path.join(VENDOR, "common")  # the book's ../common/common.h resolves from here


def entry(path, flags=("-O3",)):
    """Compiles the program at `path` and returns run(in0, in1, out, scratch, m, n) -> count
    (tensors or None for the pointers); a CUDA error raises."""
    lib = nvcc_library(path, flags=tuple(flags))
    kf_run = lib.kf_run
    kf_run.restype = ctypes.c_longlong
    kf_run.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_longlong] * 2

    def run(in0, in1, out, scratch, m, n):
        count = kf_run(*(None if t is None else ptr(t) for t in (in0, in1, out, scratch)), m, n)
        if count < 0:
            raise RuntimeError(f"{path}: CUDA error {-count}")
        return count

    return run


def book_entry(path):
    """entry() for the book's programs, which include ../common/common.h."""
    return entry(path, ("-O3", "-I", BOOK_INCLUDE))
