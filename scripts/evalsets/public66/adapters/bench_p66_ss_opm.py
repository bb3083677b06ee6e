"""Adapter of p66-ss-opm (kforecast's own code): each version's `kf_run(a, b)` (SamuelStentz's
outer-product-mean modules and Triton kernels) on fp32 a (1024, 512), b (1024, 512); output
mean over s of a_si b_sj, (512, 512)."""
import torch
from progbuild import load_program

S, M, N = 1024, 512, 512
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(S, M, device="cuda", generator=g),
            torch.randn(S, N, device="cuda", generator=g))


def reference(a, b):
    return (a.double().t() @ b.double()) / a.shape[0]


def build(path):
    return load_program(path).kf_run
