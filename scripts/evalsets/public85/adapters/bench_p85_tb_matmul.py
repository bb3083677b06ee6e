"""Adapter of p85-tb-matmul (kforecast's own code): each version's KFORECAST kf_run(a, b) (the
version's own GEMM wrapper) on A (4096, 4096) and B (4096, 4096) fp16 randn (the reference
operator's test runs 4096 x 4096 x 4096 fp16); output C (4096, 4096), fp16 (fp32 for one
version). Float64 reference: A @ B in float64. The tolerance allows fp16 output rounding
(|C| ~ 64, one fp16 ulp 0.0625 there, 0.25 at 256)."""
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
