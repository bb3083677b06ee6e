"""Adapter of p80-ck-softmax (kforecast's own code): each version's KFORECAST kf_run(x) on
x (16384, 8192) fp32 randn; output the row softmax, fp32. Float64 reference: torch.softmax in
float64."""
import torch
from progbuild import load_program

ROWS, COLS = 16384, 8192
TOL = {"rtol": 1e-3, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    x = torch.randn(ROWS, COLS, device="cuda", dtype=torch.float32, generator=g)
    return (x,)


def reference(x):
    return torch.softmax(x.double(), dim=-1)


def build(path):
    return load_program(path).kf_run
