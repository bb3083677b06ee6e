"""Adapter of p52-mt-embedding (kforecast's own code): each commit's `kf_run(weight, indices,
grad_out)` (MyTorch's fused_embedding_forward, then fused_embedding_backward, on CuPy views) on
fp32 weight (50257, 768), int64 token ids (16, 1024) and upstream gradient (16, 1024, 768);
outputs (embeddings (16, 1024, 768), weight gradient (50257, 768))."""
import torch
from progbuild import load_program

V, E, B, T = 50257, 768, 16, 1024
TOL = {"rtol": 1e-4, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    weight = torch.randn(V, E, device="cuda", generator=g)
    indices = torch.randint(0, V, (B, T), device="cuda", generator=g, dtype=torch.int64)
    grad_out = torch.randn(B, T, E, device="cuda", generator=g)
    return (weight, indices, grad_out)


def reference(weight, indices, grad_out):
    w = weight.double()
    out = w[indices]
    gw = torch.zeros_like(w)
    gw.index_add_(0, indices.reshape(-1), grad_out.double().reshape(-1, E))
    return out, gw


def build(path):
    return load_program(path).kf_run
