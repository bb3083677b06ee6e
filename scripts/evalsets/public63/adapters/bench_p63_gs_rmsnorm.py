"""Adapter of p63-gs-rmsnorm (kforecast's own code): each version's `kf_run(x, g)` (gashon's
RMSNorm autograd functions' forward) on fp32 x (250, 250, 1024) and weight g (1024,); output
x / sqrt(mean(x^2) + 1e-5) * g."""
import torch
from progbuild import load_program

B, N = 250, 1024
EPS = 1e-5
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(B, B, N, device="cuda", generator=gen)
    g = torch.rand(N, device="cuda", generator=gen)
    return (x, g)


def reference(x, g):
    x = x.double()
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + EPS) * g.double()


def build(path):
    return load_program(path).kf_run
