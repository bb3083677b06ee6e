"""Adapter of p70-hedu-gemm (kforecast's own code): each version's KFORECAST kf_run(a, b) (the
chapter's host wrapper at its defaults) on A (4096, 4096) and B (4096, 4096) fp16 randn (the
chapters' correctness cells draw torch.randn fp16 inputs, at 2048 x 2048 x 1024); output C
(4096, 4096) fp16. Float64 reference: A @ B in float64. The tolerance allows fp16 output
rounding (|C| ~ 64, one fp16 ulp 0.0625) and the split-K chapter's fp16 atomic adds."""
import torch
from progbuild import load_program

M = N = K = 4096
TOL = {"rtol": 1e-2, "atol": 0.5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    a = torch.randn(M, K, device="cuda", dtype=torch.float16, generator=g)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16, generator=g)
    return a, b


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    return load_program(path).kf_run
