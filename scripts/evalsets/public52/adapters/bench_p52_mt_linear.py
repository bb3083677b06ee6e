"""Adapter of p52-mt-linear (kforecast's own code): each commit's `kf_run(a, w, b)` (MyTorch's
fused_linear_forward on CuPy views) on fp16 a (4096, 4096), w (4096, 4096), b (4096,); output
y = a @ w + b (fp16, fp32 accumulation)."""
import torch
from progbuild import load_program

B, I, O = 4096, 4096, 4096
TOL = {"rtol": 1e-2, "atol": 5e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    a = (torch.rand(B, I, device="cuda", generator=g) - 0.5).half()
    w = (torch.rand(I, O, device="cuda", generator=g) - 0.5).half()
    b = torch.randn(O, device="cuda", generator=g).half()
    return (a, w, b)


def reference(a, w, b):
    return a.double() @ w.double() + b.double()


def build(path):
    return load_program(path).kf_run
