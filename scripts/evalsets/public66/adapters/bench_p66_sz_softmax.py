"""Adapter of p66-sz-softmax (kforecast's own code): each version's `kf_run(x)` (shizhengLi's
softmax functions, or its benchmark's torch line) on fp32 x (8192, 8192); output softmax(x, -1)."""
import torch
from progbuild import load_program

M, N = 8192, 8192
TOL = {"rtol": 1e-3, "atol": 1e-7}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=-1)


def build(path):
    return load_program(path).kf_run
