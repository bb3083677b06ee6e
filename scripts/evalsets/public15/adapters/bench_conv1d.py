"""Adapter of family p15-conv1d (kforecast's own code): LeetGPU challenge easy/9_1d_convolution."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p15common as p15  # noqa: E402

IN, K = 1_500_000, 2047  # the challenge's performance size
TOL = {"rtol": 1e-4, "atol": 1e-4}  # the challenge's own
OUTPUTS = (2,)


def make_inputs(seed):
    g = p15.gen(seed)
    x = torch.empty(IN, device="cuda").uniform_(-1.0, 1.0, generator=g)
    k = torch.empty(K, device="cuda").uniform_(-1.0, 1.0, generator=g)
    return (x, k, torch.zeros(IN - K + 1, device="cuda"), IN, K)


def reference(x, k, out, n, m):
    return torch.nn.functional.conv1d(x.double().view(1, 1, -1), k.double().view(1, 1, -1)).view(-1)


def build(path):
    return p15.build(path, OUTPUTS)
