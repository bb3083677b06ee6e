"""Adapter of p76-ws-attn (kforecast's own code): each version's KFORECAST kf_run(q, k, v) on q,
k, v (1, 16384, 64) fp32 randn ([heads, seq, d], one head); output softmax(q k^T / sqrt(d)) v,
non-causal, (1, 16384, 64) fp32. Float64 reference of the same. The Triton kernels' tl.dot on
fp32 uses TF32 (Triton's default), hence the author's test tolerance 1e-2."""
import math

import torch
from progbuild import load_program

H, S, D = 1, 16384, 64
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    return tuple(torch.randn(H, S, D, device="cuda", dtype=torch.float32, generator=g)
                 for _ in range(3))


def reference(q, k, v):
    q, k, v = q.double(), k.double(), v.double()
    s = (q @ k.transpose(-2, -1)) / math.sqrt(D)
    return torch.softmax(s, dim=-1) @ v


def build(path):
    return load_program(path).kf_run
