"""Adapter of p37-sf-layernorm (kforecast's own code): stable-fast's Triton LayerNorm forward,
the module's `LayerNorm.apply(x, (N,), weight, bias, 1e-5)` on inputs that need no gradient
(stable-fast's inference path: mean and rstd not stored), x (8192, 2048) float16, weight and
bias (2048,) float16. Forward only: before 56718ab 'fix autograd' the module's backward cannot
run (its forward allocates mean/rstd only when torch.is_grad_enabled(), which is off inside an
autograd Function's forward, so the backward kernel receives None)."""
import torch
import torch.nn.functional as F
from progbuild import load_program

M, N = 8192, 2048
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(M, N, device="cuda", generator=g, dtype=torch.float16)
    w = (torch.rand(N, device="cuda", generator=g) + 0.5).half()
    b = torch.randn(N, device="cuda", generator=g, dtype=torch.float16)
    return (x, w, b)


def reference(x, w, b):
    return F.layer_norm(x.double(), (N,), w.double(), b.double(), 1e-5)


def build(path):
    mod = load_program(path)

    def fn(x, w, b):
        return mod.LayerNorm.apply(x, (N,), w, b, 1e-5)
    return fn
