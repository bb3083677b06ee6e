"""radix_digit_sort: CUDA-samples-style .cu programs with a host-driven pass loop;
extern "C" int radix_sort_keys(keys_in, keys_out, n) writes the n 32-bit keys in ascending
order (unsigned order; the keys here are non-negative int32, so it is the int order too)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 16 * 1024 * 1024 + 77  # 64 MB of keys, read twice and written once per digit pass


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    keys = torch.randint(0, 2**31 - 1, (N,), device="cuda", dtype=torch.int32, generator=g)
    return (keys,)


def build(path):
    lib = nvcc_library(path)
    lib.radix_sort_keys.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    lib.radix_sort_keys.restype = ctypes.c_int

    def fn(keys):
        out = torch.empty_like(keys)
        rc = lib.radix_sort_keys(ptr(keys), ptr(out), keys.numel())
        if rc != 0:
            raise RuntimeError(f"radix_sort_keys returned CUDA error {rc}")
        return out

    return fn


def reference(keys):
    return torch.sort(keys).values
