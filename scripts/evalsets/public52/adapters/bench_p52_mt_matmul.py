"""Adapter of p52-mt-matmul (kforecast's own code): each commit's `kf_run(a, b)` (MyTorch's
fused_grouped_matmul on CuPy views) on fp16 a (4096, 4096), b (4096, 4096); output a @ b (fp16,
fp32 accumulation)."""
import torch
from progbuild import load_program

M, K, N = 4096, 4096, 4096
TOL = {"rtol": 1e-2, "atol": 5e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.rand(M, K, device="cuda", generator=g) - 0.5).half()
    b = (torch.rand(K, N, device="cuda", generator=g) - 0.5).half()
    return (a, b)


def reference(a, b):
    return a.double() @ b.double()


def build(path):
    return load_program(path).kf_run
