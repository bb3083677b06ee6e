"""Adapter of p45-nt-matmul (kforecast's own code): each step's `kf_run(a, b)` (the file's own
wrapper) on fp16 A and B of 4096 x 4096 (benchmarks/bench_matmul.py's size); fp16 C, compared with
the float64 product."""
import torch
from progbuild import load_program

M = N = K = 4096
TOL = {"rtol": 1e-2, "atol": 0.5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(M, K, device="cuda", generator=g).half()
    b = torch.randn(K, N, device="cuda", generator=g).half()
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    return load_program(path).kf_run
