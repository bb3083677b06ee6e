"""Adapter of p48-by-matmul (kforecast's own code): each GPU MODE submission's
`kf_run(a, b, c)` (its custom_kernel((a, b, c))) on fp16 a (4096, 4096), b (4096, 5120) and an
output c (4096, 5120), the (m, n, k) = (4096, 5120, 4096) shape the submissions special-case;
compared with the float64 product. The submissions import `task` from their own folder."""
import os
import sys

import torch
from progbuild import load_program

M, N, K = 4096, 5120, 4096
TOL = {"rtol": 1e-2, "atol": 0.1}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = torch.randn(M, K, device="cuda", generator=g).half()
    b = torch.randn(K, N, device="cuda", generator=g).half()
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    return (a, b, c)


def reference(a, b, c):
    return a.double() @ b.double()


def build(path):
    folder = os.path.dirname(os.path.abspath(path))
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return load_program(path).kf_run
