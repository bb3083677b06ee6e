"""Adapter of p39-ny-gemm (kforecast's own code): each step's `kf_run(a, b)` (the blog's
`matmul` wrapper) on fp16 A 8192 x 4096 and B 4096 x 8192, the sizes of the blog's main.py.
Output fp16, accumulated in fp32; checked against a float64 product."""
import torch
from progbuild import load_program

M, N, K = 8192, 8192, 4096
TOL = {"rtol": 1e-2, "atol": 0.1}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(M, K, device="cuda", generator=g).half()
    b = torch.randn(K, N, device="cuda", generator=g).half()
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    return load_program(path).kf_run
