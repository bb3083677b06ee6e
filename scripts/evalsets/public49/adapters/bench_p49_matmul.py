"""Adapter of the p49-pk-matmul families (kforecast's own code): C = A @ B of A 4096 x 2048 and
B 2048 x 4096 float32, uniform [0, 1) as the problem's get_inputs draws them (the sizes this
repository's problem file sets)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p49common as kf  # noqa: E402

M, K, N = 4096, 2048, 4096
TOL = {"rtol": 1e-4, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    A = torch.rand(M, K, device="cuda", generator=g)
    B = torch.rand(K, N, device="cuda", generator=g)
    return (A, B)


def reference(A, B):
    return A.double() @ B.double()


build = kf.build
