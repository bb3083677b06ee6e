"""Adapter of p45-nt-cumsum (kforecast's own code): each commit's `kf_run(x)` (its full cumsum
wrapper) on a float32 vector of 65536 uniform [0, 1) values (the files' main() size); inclusive
prefix sum, float32 out, compared with the float64 cumsum."""
import torch
from progbuild import load_program

N = 65536
TOL = {"rtol": 1e-4, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g),)


def reference(x):
    return torch.cumsum(x.double(), dim=0)


def build(path):
    return load_program(path).kf_run
