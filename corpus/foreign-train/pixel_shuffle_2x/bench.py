"""pixel_shuffle_2x: depth-to-space with factor 2 (torch.nn.functional.pixel_shuffle(x, 2)), templated
.cu programs: extern "C" int pixel_shuffle2x(in, out, n, c, h, w) with in f32 [n, 4c, h, w] and
out f32 [n, c, 2h, 2w], out[b, k, 2y+i, 2x+j] = in[b, 4k + 2i + j, y, x]."""
import ctypes

import torch
from progbuild import nvcc_library, ptr

N, C, H, W = 8, 64, 136, 130  # 145 MB in, 145 MB out; H, W not multiples of a tile
TOL = {"rtol": 0.0, "atol": 0.0}  # a permutation: exact


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, 4 * C, H, W, device="cuda", generator=g),)


def build(path):
    lib = nvcc_library(path)
    lib.pixel_shuffle2x.argtypes = [ctypes.c_void_p, ctypes.c_void_p] + [ctypes.c_int] * 4
    lib.pixel_shuffle2x.restype = ctypes.c_int

    def fn(x):
        n, c4, h, w = x.shape
        out = torch.empty(n, c4 // 4, 2 * h, 2 * w, device=x.device, dtype=x.dtype)
        rc = lib.pixel_shuffle2x(ptr(x), ptr(out), n, c4 // 4, h, w)
        if rc != 0:
            raise RuntimeError(f"pixel_shuffle2x returned CUDA error {rc}")
        return out

    return fn


def reference(x):
    return torch.nn.functional.pixel_shuffle(x.double(), 2)
