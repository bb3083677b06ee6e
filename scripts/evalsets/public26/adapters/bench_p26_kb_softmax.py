"""Adapter of p26-kb-softmax (kforecast's own code): softmax over dim 1 of x 4096 x 16384
float32 drawn like the problem's get_inputs (torch.rand) (KernelBench level 1 problem 23)."""
import torch
from progbuild import kernelbench_model

B, D = 4096, 16384
TOL = {"rtol": 1e-3, "atol": 1e-7}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(B, D, device="cuda", generator=g),)


def reference(x):
    return torch.softmax(x.double(), dim=1)


def build(path):
    model = kernelbench_model(path)

    def fn(x):
        with torch.no_grad():
            return model(x)
    return fn
