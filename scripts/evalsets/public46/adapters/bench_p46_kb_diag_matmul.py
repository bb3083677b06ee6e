"""Adapter of p46-kb-diag-matmul (kforecast's own code): diag(A) @ B, A (4096,) and B
4096 x 4096 float32, uniform [0, 1) as the problem's get_inputs."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p46common as kf  # noqa: E402

N, M = 4096, 4096
TOL = {"rtol": 1e-5, "atol": 1e-6}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return (torch.rand(N, device="cuda", generator=g), torch.rand(N, M, device="cuda", generator=g))


def reference(A, B):
    return A.double()[:, None] * B.double()


build = kf.build
