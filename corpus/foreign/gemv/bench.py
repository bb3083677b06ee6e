"""gemv: cupy programs, gemv(A [m, k] f32, x [k] f32) -> y [m]."""
import cupy as cp
import torch
from progbuild import load_program

M, K = 8192, 8192
TOL = {"rtol": 1e-4, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.randn(M, K, device="cuda", generator=g), torch.randn(K, device="cuda", generator=g))


def build(path):
    prog = load_program(path)
    return lambda a, x: torch.from_dlpack(prog.gemv(cp.from_dlpack(a), cp.from_dlpack(x)))


def reference(a, x):
    return a.double() @ x.double()
