"""Adapter of p52-mt-cross-entropy (kforecast's own code): each commit's `kf_run(logits, labels)`
(MyTorch's fused_cross_entropy_forward, then fused_cross_entropy_backward, on CuPy views) on
fp32 logits (2048, 50257) and int64 labels; outputs (per-row loss, gradient softmax - onehot)."""
import torch
from progbuild import load_program

N, C = 2048, 50257
TOL = {"rtol": 1e-4, "atol": 1e-5}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    logits = torch.randn(N, C, device="cuda", generator=g) * 2.0
    labels = torch.randint(0, C, (N,), device="cuda", generator=g, dtype=torch.int64)
    return (logits, labels)


def reference(logits, labels):
    x = logits.double()
    lse = torch.logsumexp(x, dim=1)
    loss = lse - x.gather(1, labels[:, None])[:, 0]
    grad = torch.exp(x - lse[:, None])
    grad[torch.arange(N, device=x.device), labels] -= 1.0
    return loss, grad


def build(path):
    return load_program(path).kf_run
