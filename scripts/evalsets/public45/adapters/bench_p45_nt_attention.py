"""Adapter of p45-nt-attention (kforecast's own code): each step's `kf_run(q, k, v)` (the file's
wrapper, non-causal) on fp16 q, k, v of (2, 32, 2048, 64) (benchmarks/bench_attention.py: batch 2,
32 heads, head_dim 64, seq_len 2048 of its sweep): softmax(q k^T / sqrt(d)) v, fp16 out."""
import torch
import torch.nn.functional as F
from progbuild import load_program

B, H, N, D = 2, 32, 2048, 64
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(B, H, N, D, device="cuda", generator=g).half()
    k = torch.randn(B, H, N, D, device="cuda", generator=g).half()
    v = torch.randn(B, H, N, D, device="cuda", generator=g).half()
    return (q, k, v)


def reference(q, k, v):
    return F.scaled_dot_product_attention(q.double(), k.double(), v.double())


def build(path):
    return load_program(path).kf_run
