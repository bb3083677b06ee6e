"""Adapter of p55-ld-softmax (kforecast's own code): each version's `kf_run(x, dp)` (the file's
softmax autograd function, forward then `.backward(dp)`) on fp32 x (4096, 1024) (M = 4096 and an
N inside the author's benchmark sweep, 256-1152); outputs p = softmax(x, -1) and dL/dx."""
import torch
from progbuild import load_program

M, N = 4096, 1024
TOL = {"rtol": 1e-4, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(M, N, device="cuda", generator=g)
    dp = torch.randn(M, N, device="cuda", generator=g)
    return (x, dp)


def reference(x, dp):
    p = torch.softmax(x.double(), dim=-1)
    dpd = dp.double()
    return p, p * (dpd - (p * dpd).sum(-1, keepdim=True))


def build(path):
    return load_program(path).kf_run
