"""Adapter of p58-vn-add (kforecast's own code): each version's `kf_run(x, y)` (learning-path's
triton_add / autotuned_add) on fp32 vectors of 2^25 elements; output x + y."""
import torch
from progbuild import load_program

N = 1 << 25
TOL = {"rtol": 1e-6, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(N, device="cuda", generator=g), torch.randn(N, device="cuda", generator=g))


def reference(x, y):
    return x.double() + y.double()


def build(path):
    return load_program(path).kf_run
