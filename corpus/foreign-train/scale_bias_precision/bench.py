"""scale_bias_precision: .cu programs with host code; extern "C" int scale_bias(x, out, n, a, b)
computes out = max(a*x + b, 0) over n elements, each version in its own element type
(float32, float64, float16, bfloat16: the file says which). The inputs hold the same values
in every type, made before the clock starts, so only the kernel's own traffic is timed."""
import ctypes
import os

import torch
from progbuild import nvcc_library, ptr

N = 64 * 1024 * 1024 + 3  # not a multiple of 8 or of a block: the tails matter
# half precision rounds the result to 11 bits
TOL = {"rtol": 1e-2, "atol": 1e-2}

DTYPES = {"f64": torch.float64, "f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16}


def dtype_of(path):
    """The element type a version works in, from its file name (`..._f16_...`)."""
    parts = os.path.basename(path).rsplit(".", 1)[0].split("_")
    for p in parts:
        if p in DTYPES:
            return DTYPES[p]
    raise ValueError(f"{path}: no element type in the file name")


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(N, device="cuda", generator=g).to(torch.bfloat16)  # exact in every type
    copies = {name: x.to(t) for name, t in DTYPES.items()}
    return (copies["f64"], copies["f32"], copies["f16"], copies["bf16"], 1.5, -0.25)


def build(path):
    lib = nvcc_library(path)
    lib.scale_bias.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_longlong, ctypes.c_float, ctypes.c_float]
    lib.scale_bias.restype = ctypes.c_int
    pick = list(DTYPES.values()).index(dtype_of(path))

    def fn(x64, x32, x16, xbf, a, b):
        x = (x64, x32, x16, xbf)[pick]
        out = torch.empty_like(x)
        rc = lib.scale_bias(ptr(x), ptr(out), x.numel(), a, b)
        if rc != 0:
            raise RuntimeError(f"scale_bias returned CUDA error {rc}")
        return out

    return fn


def reference(x64, x32, x16, xbf, a, b):
    return (a * x64 + b).clamp_min(0.0)
