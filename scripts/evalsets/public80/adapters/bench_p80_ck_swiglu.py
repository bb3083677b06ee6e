"""Adapter of p80-ck-swiglu (kforecast's own code): each version's KFORECAST kf_run(gate, up) on
gate, up (16384, 8192) bf16 randn; output up * silu(gate), bf16. Float64 reference: the same in
float64."""
import torch
from progbuild import load_program

ROWS, COLS = 16384, 8192
TOL = {"rtol": 2e-2, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    gate = torch.randn(ROWS, COLS, device="cuda", dtype=torch.bfloat16, generator=g)
    up = torch.randn(ROWS, COLS, device="cuda", dtype=torch.bfloat16, generator=g)
    return (gate, up)


def reference(gate, up):
    gd = gate.double()
    return up.double() * gd * torch.sigmoid(gd)


def build(path):
    return load_program(path).kf_run
