"""Adapter of p92-fa-* (kforecast's own code): CS149 asst5 FlashAttention forward (a GPU MODE-style
popcorn-cli class leaderboard), each version's `custom_kernel(data)` (the reference version's
`ref_kernel(data)`) on the problem's own generate_input(batch_size=1, num_heads=64, head_dim=128,
seq_len=1024, seed) (its first test case; fp16 Q, K, V of 8 Mi elements each); the
family folder (the problem's task.py and utils.py) goes first on sys.path. Tolerance the problem's
(rtol = atol = 1e-2); the float64 reference is softmax(QK^T / sqrt(d)) V computed in float64."""
import math
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import _p92common as kf  # noqa: E402

CFG = dict(batch_size=1, num_heads=64, head_dim=128, seq_len=1024)
TOL = {"rtol": 1e-2, "atol": 1e-2}
FAM = kf.Family(HERE)


def make_inputs(seed):
    return FAM.ref().generate_input(seed=seed % (1 << 31), **CFG)


def reference(q, k, v):
    q, k, v = q.double(), k.double(), v.double()
    s = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
    return torch.matmul(torch.softmax(s, dim=-1), v)


def build(path):
    f = FAM.entry(path)

    def fn(q, k, v):
        with torch.no_grad():
            return f((q, k, v))
    return fn
