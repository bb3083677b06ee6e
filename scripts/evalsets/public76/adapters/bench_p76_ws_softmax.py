"""Adapter of p76-ws-softmax (kforecast's own code): each version's KFORECAST kf_run(x) on x
(8192, 4096) fp32 randn; output the row softmax (dim 1), fp32. Float64 reference: torch.softmax
in float64."""
import torch
from progbuild import load_program

ROWS, COLS = 8192, 4096
TOL = {"rtol": 1e-4, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    return (torch.randn(ROWS, COLS, device="cuda", dtype=torch.float32, generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=1)


def build(path):
    return load_program(path).kf_run
