"""Adapter of p42-bu-attention (kforecast's own code): each version's `kf_run(q, k, v)` (its
file's wrapper) on float32 q, k, v of (4, 8, 2048, 64): causal softmax(q k^T / sqrt(d)) v,
float32 out. The kernels use tl.dot in TF32."""
import torch
import torch.nn.functional as F
from progbuild import load_program

B, H, N, D = 4, 8, 2048, 64
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    q = torch.randn(B, H, N, D, device="cuda", generator=g)
    k = torch.randn(B, H, N, D, device="cuda", generator=g)
    v = torch.randn(B, H, N, D, device="cuda", generator=g)
    return (q, k, v)


def reference(q, k, v):
    return F.scaled_dot_product_attention(q.double(), k.double(), v.double(), is_causal=True)


def build(path):
    return load_program(path).kf_run
