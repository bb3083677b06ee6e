"""Adapter of p26-kb-cumsum (kforecast's own code): inclusive scan along dim 1 of x 2048 x 32768
float32 drawn like the problem's get_inputs (torch.rand) (KernelBench level 1 problem 89,
Model/ModelNew(1))."""
import torch
from progbuild import kernelbench_model

B, L = 2048, 32768
DIM = 1
# row sums reach ~16384: float32 running sums differ from float64 by ~1e-3 absolute
TOL = {"rtol": 1e-4, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(B, L, device="cuda", generator=g),)


def reference(x):
    return torch.cumsum(x.double(), dim=DIM)


def build(path):
    model = kernelbench_model(path, (DIM,))

    def fn(x):
        with torch.no_grad():
            return model(x)
    return fn
