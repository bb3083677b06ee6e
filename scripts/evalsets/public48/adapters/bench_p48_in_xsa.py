"""Adapter of p48-in-xsa (kforecast's own code): each commit's `kf_run(y, v, grad_out)` (the
file's fused_xsa, forward then backward) on fp16 y (16, 4, 1024, 128), v (16, 2, 1024, 128)
(the author's bench_xsa size: 4 query heads over 2 kv heads); outputs (z, grad_y, grad_v),
compared with float64 autograd of z = y - (y . v / |v|^2) v."""
import torch
from progbuild import load_program

B, HQ, HKV, S, D = 16, 4, 2, 1024, 128
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    y = torch.randn(B, HQ, S, D, device="cuda", generator=g).half()
    v = torch.randn(B, HKV, S, D, device="cuda", generator=g).half()
    grad_out = torch.randn(B, HQ, S, D, device="cuda", generator=g).half()
    return (y, v, grad_out)


def reference(y, v, grad_out):
    y = y.double().requires_grad_(True)
    v = v.double().requires_grad_(True)
    with torch.enable_grad():
        vr = v.repeat_interleave(HQ // HKV, dim=1)
        z = y - ((y * vr).sum(-1, keepdim=True) / (vr * vr).sum(-1, keepdim=True)) * vr
        z.backward(grad_out.double())
    return z.detach(), y.grad, v.grad


def build(path):
    return load_program(path).kf_run
