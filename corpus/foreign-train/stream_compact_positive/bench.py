"""stream_compact_positive: keep the positive elements of a float32 vector, .cu programs with host
code: extern "C" int compact_positive(in, out, d_count, n) writes the kept values to out[0:count]
and the count to *d_count (int32 on the device). Versions that use atomics do not keep the input
order, so the adapter compares what order cannot change: the count, the float64 sum and the sum of
squares of out[0:count] (a missing, doubled or unwritten element changes them; unwritten memory is
NaN)."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N = 32 * 1024 * 1024 + 5  # 134 MB in, ~67 MB out; not a multiple of 4 or of any block
TOL = {"rtol": 1e-5, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g),)


def build(path):
    lib = nvcc_library(path)
    lib.compact_positive.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong]
    lib.compact_positive.restype = ctypes.c_int

    def fn(x):
        out = torch.empty_like(x)
        count = torch.empty(1, device=x.device, dtype=torch.int32)
        rc = lib.compact_positive(ptr(x), ptr(out), ptr(count), x.numel())
        if rc != 0:
            raise RuntimeError(f"compact_positive returned CUDA error {rc}")
        kept = out[: int(count.item())]
        return count, kept.sum(dtype=torch.float64), torch.dot(kept, kept)

    return fn


def reference(x):
    kept = x[x > 0].double()
    count = torch.tensor([kept.numel()], device=x.device, dtype=torch.int32)
    return count, kept.sum(), (kept * kept).sum()
