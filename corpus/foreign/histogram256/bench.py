"""histogram256: macro-heavy .cu programs; extern "C" int histogram_u8(data, bins, n) counts the
bytes of data into 256 int32 bins (the program clears the bins itself)."""
import torch
from progbuild import nvcc_library, ptr

N = 1 << 28  # bytes
TOL = {"rtol": 0.0, "atol": 0.0}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randint(0, 256, (N,), device="cuda", dtype=torch.uint8, generator=g),)


def build(path):
    lib = nvcc_library(path)

    def fn(data):
        bins = torch.empty(256, device=data.device, dtype=torch.int32)
        rc = lib.histogram_u8(ptr(data), ptr(bins), ctypes_ll(data.numel()))
        if rc != 0:
            raise RuntimeError(f"histogram_u8 returned CUDA error {rc}")
        return bins

    return fn


def ctypes_ll(v):
    import ctypes

    return ctypes.c_longlong(v)


def reference(data):
    return torch.bincount(data.to(torch.int64), minlength=256)
