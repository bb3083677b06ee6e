"""Adapter of p46-kb-tril-matmul (kforecast's own code): tril(A @ B) of lower-triangular
A and B, 2048 x 2048 float32 (uniform [0, 1) below the diagonal, as the problem's get_inputs)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p46common as kf  # noqa: E402

N = 2048
TOL = {"rtol": 1e-4, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    A = torch.tril(torch.rand(N, N, device="cuda", generator=g))
    B = torch.tril(torch.rand(N, N, device="cuda", generator=g))
    return (A, B)


def reference(A, B):
    return torch.tril(A.double() @ B.double())


build = kf.build
