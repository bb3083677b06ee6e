"""Adapter of p39-dl-matmul (kforecast's own code): each version's `kf_run(a, b)` (the calls
of the source's matmul_profile.py) on float32 A, B of 4096 x 4096 from torch.rand, its largest
size. tl.dot runs in its default TF32 precision, hence the tolerance."""
import torch
from progbuild import load_program

SZ = 4096
TOL = {"rtol": 5e-3, "atol": 0.05}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.rand(SZ, SZ, device="cuda", generator=g)
    b = torch.rand(SZ, SZ, device="cuda", generator=g)
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    return load_program(path).kf_run
