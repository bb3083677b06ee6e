"""Adapter of p72-liger-swiglu (kforecast's own code): each version's KFORECAST kf_run(a, b) on
a, b (16384, 8192) bf16 randn; output silu(a) * b, bf16. Float64 reference: the same in float64."""
import torch
import torch.nn.functional as F
from progbuild import load_program

ROWS, COLS = 16384, 8192
TOL = {"rtol": 2e-2, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    a = torch.randn(ROWS, COLS, device="cuda", dtype=torch.bfloat16, generator=g)
    b = torch.randn(ROWS, COLS, device="cuda", dtype=torch.bfloat16, generator=g)
    return (a, b)


def reference(a, b):
    return F.silu(a.double()) * b.double()


def build(path):
    return load_program(path).kf_run
