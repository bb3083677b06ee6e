"""Adapter of p46-kb-4d-matmul (kforecast's own code): C[b,i,j,k] = sum_l A[b,i,j,l] B[l,k],
A (8, 64, 64, 256) and B (256, 256) float32, uniform [0, 1) as the problem's get_inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p46common as kf  # noqa: E402

b, i, j, l, k = 8, 64, 64, 256, 256
TOL = {"rtol": 1e-4, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(b, i, j, l, device="cuda", generator=g), torch.rand(l, k, device="cuda", generator=g))


def reference(A, B):
    return torch.einsum("bijl,lk->bijk", A.double(), B.double())


build = kf.build
