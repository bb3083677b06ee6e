"""Adapter of p76-ws-matmul (kforecast's own code): each version's KFORECAST kf_run(a, b) on a, b
(4096, 4096) fp32 randn; output C = a @ b (4096, 4096) fp32. Float64 reference: a @ b in
float64 (K = 4096 fp32 sums: atol 1e-2)."""
import torch
from progbuild import load_program

N = 4096
TOL = {"rtol": 1e-3, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    return tuple(torch.randn(N, N, device="cuda", dtype=torch.float32, generator=g) for _ in range(2))


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    torch.backends.cuda.matmul.allow_tf32 = False
    return load_program(path).kf_run
