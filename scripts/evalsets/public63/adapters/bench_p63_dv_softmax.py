"""Adapter of p63-dv-softmax (kforecast's own code): each version's `kf_run(x)` (learn-triton's
softmax, or torch.softmax) on fp32 x (32768, 1024); output softmax(x, -1)."""
import torch
from progbuild import load_program

M, N = 32768, 1024
TOL = {"rtol": 1e-4, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, N, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=-1)


def build(path):
    return load_program(path).kf_run
