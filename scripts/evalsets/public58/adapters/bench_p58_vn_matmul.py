"""Adapter of p58-vn-matmul (kforecast's own code): each version's `kf_run(a, b)` (learning-path's
matmul functions, or the a @ b its benchmark times) on fp32 a, b (4096, 4096), the largest size of
the file's benchmark; output c = a @ b (fp32; the Triton kernels' tl.dot runs as tf32)."""
import torch
from progbuild import load_program

N = 4096
# tf32 operands (10-bit mantissa) over K = 4096 products of unit normals: entries of size ~64,
# errors of ~0.05.
TOL = {"rtol": 1e-2, "atol": 0.5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(N, N, device="cuda", generator=g)
    b = torch.randn(N, N, device="cuda", generator=g)
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    return load_program(path).kf_run
