"""Adapter of p70-hedu-softmax (kforecast's own code): each version's KFORECAST kf_run(x) (the
chapter's wrapper at its defaults) on x (16384, 4096) fp32 randn; output softmax over the last
dim, fp32. Float64 reference: torch.softmax in float64."""
import torch
from progbuild import load_program

ROWS, COLS = 16384, 4096
TOL = {"rtol": 1e-4, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    return (torch.randn(ROWS, COLS, device="cuda", dtype=torch.float32, generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=-1)


def build(path):
    return load_program(path).kf_run
