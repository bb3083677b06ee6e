"""Adapter of p26-kb-rmsnorm (kforecast's own code): RMSNorm over dim 1 (64 features, no weight,
eps 1e-5) of x 16 x 64 x 256 x 256 float32 drawn like the problem's get_inputs (torch.rand)
(KernelBench level 1 problem 36, Model/ModelNew(64))."""
import torch
from progbuild import kernelbench_model

SHAPE = (16, 64, 256, 256)
FEATURES = 64
EPS = 1e-5
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(SHAPE, device="cuda", generator=g),)


def reference(x):
    x = x.double()
    return x / torch.sqrt(torch.mean(x * x, dim=1, keepdim=True) + EPS)


def build(path):
    model = kernelbench_model(path, (FEATURES,))

    def fn(x):
        with torch.no_grad():
            return model(x)
    return fn
