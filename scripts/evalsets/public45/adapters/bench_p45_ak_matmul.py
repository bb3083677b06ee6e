"""Adapter of p45-ak-matmul (kforecast's own code): each commit's `kf_run(x, y)` (the file's
`triton_matmul`) on fp16 x and y of (3, 1, 4096, 4096) (B, H, M, K and B, H, K, N: the largest of
the author's TEST_SHAPES); fp16 out, compared with the float64 batched product."""
import torch
from progbuild import load_program

B, H, M, N, K = 3, 1, 4096, 4096, 4096
TOL = {"rtol": 1e-2, "atol": 0.5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(B, H, M, K, device="cuda", generator=g).half()
    y = torch.randn(B, H, K, N, device="cuda", generator=g).half()
    return (x, y)


def reference(x, y):
    return torch.matmul(x.double(), y.double())


def build(path):
    return load_program(path).kf_run
