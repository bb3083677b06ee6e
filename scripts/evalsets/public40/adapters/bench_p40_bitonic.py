"""Adapter of p40-ad-bitonic, p40-nb-bitonic and p40-ek-bitonic (kforecast's own code; the builder
copies it into each family's folder): ascending sort of 2^24 int32 keys uniform in [0, HIGH), HIGH
the source's value range, through each version's kf_run (the source's launch lines). The sort is in
place, so the keys are copied into the work buffer first, in every version."""
import ctypes
import os

import torch
from progbuild import nvcc_library, ptr

N = 1 << 24
# family -> (HIGH, kf_run's length type): arisdask fills with rand() (RAND_MAX = 2^31 - 1) and takes
# uint64_t, NontasBak rand() % 100 and int, ekoumpar rand() % 1000 and size_t.
FAMILIES = {"p40-ad-bitonic": (2147483647, ctypes.c_uint64),
            "p40-nb-bitonic": (100, ctypes.c_int),
            "p40-ek-bitonic": (1000, ctypes.c_size_t)}
HIGH, LENGTH_T = FAMILIES[os.path.basename(os.path.dirname(os.path.abspath(__file__)))]
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    keys = torch.randint(0, HIGH, (N,), device="cuda", generator=g, dtype=torch.int32)
    work = torch.empty_like(keys)
    return (keys, work)


def reference(keys, work):
    return torch.sort(keys.long()).values.to(torch.float64)


def build(path):
    lib = nvcc_library(path, flags=("-O3",))
    lib.kf_run.restype = None
    lib.kf_run.argtypes = [ctypes.c_void_p, LENGTH_T]

    def fn(keys, work):
        work.copy_(keys)
        lib.kf_run(ptr(work), N)
        return work
    return fn
