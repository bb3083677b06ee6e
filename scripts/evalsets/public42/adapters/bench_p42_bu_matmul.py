"""Adapter of p42-bu-matmul (kforecast's own code): each file's `kf_run(a, b)` (its `naive_matmul`
or `tiled_matmul` wrapper) on float32 A and B of 4096 x 4096 (the files' largest benchmark
size); tl.dot runs in TF32."""
import torch
from progbuild import load_program

M = N = K = 4096
TOL = {"rtol": 1e-2, "atol": 0.5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(M, K, device="cuda", generator=g)
    b = torch.randn(K, N, device="cuda", generator=g)
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    return load_program(path).kf_run
