"""Adapter of p63-dv-bmm (kforecast's own code): each version's `kf_run(x, y)` (learn-triton's
batched matmul, or the torch line of its check) on fp16 x, y (32, 1024, 1024); output x @ y."""
import torch
from progbuild import load_program

B, N = 32, 1024
# fp16 products of unit normals over K = 1024: entries of size ~32; fp16 output rounding ~0.016.
TOL = {"rtol": 1e-2, "atol": 0.25}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(B, N, N, device="cuda", generator=g).half()
    y = torch.randn(B, N, N, device="cuda", generator=g).half()
    return (x, y)


def reference(x, y):
    return x.double() @ y.double()


def build(path):
    return load_program(path).kf_run
