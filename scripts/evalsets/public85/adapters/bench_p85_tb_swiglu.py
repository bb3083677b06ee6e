"""Adapter of p85-tb-swiglu (kforecast's own code): each version's KFORECAST kf_run(xy) (the
version's own SwiGLU wrapper) on xy (8192, 16384) fp32 randn (x, y = its two halves along the
last dim); output silu(x) * y, (8192, 8192) fp32. fp32 as in TritonBench's own tests of the
operator (Triton's tl.exp / tl.sigmoid reject fp16 operands, and most candidates do not cast).
Float64 reference: the same in float64. The tolerance allows fp32 rounding of exp and products
with room to spare."""
import torch
from progbuild import load_program

ROWS, COLS = 8192, 8192
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    return (torch.randn(ROWS, 2 * COLS, device="cuda", dtype=torch.float32, generator=g),)


def reference(xy):
    x, y = xy.double().chunk(2, dim=-1)
    return x * torch.sigmoid(x) * y


def build(path):
    return load_program(path).kf_run
