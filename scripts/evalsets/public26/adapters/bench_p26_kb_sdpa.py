"""Adapter of p26-kb-sdpa (kforecast's own code): scaled dot-product attention, no mask, of
Q, K, V 4 x 16 x 512 x 1024 float16 drawn like the problem's get_inputs (torch.rand)
(KernelBench level 1 problem 97: its sequence length and head size, 4 x 16 of its 32 x 32)."""
import math

import torch
from progbuild import kernelbench_model

SHAPE = (4, 16, 512, 1024)
TOL = {"rtol": 1e-2, "atol": 5e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return tuple(torch.rand(SHAPE, device="cuda", generator=g, dtype=torch.float16) for _ in range(3))


def reference(q, k, v):
    q, k, v = q.double(), k.double(), v.double()
    s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(q.shape[-1])
    return torch.matmul(torch.softmax(s, dim=-1), v)


def build(path):
    model = kernelbench_model(path)

    def fn(q, k, v):
        with torch.no_grad():
            return model(q, k, v)
    return fn
