"""Adapter of p55-ld-rmsnorm (kforecast's own code): each version's `kf_run(x, w, dy)` (the
file's RMSNorm autograd function with eps 1e-5, forward then `.backward(dy)`) on the author's
backward benchmark inputs at M = 4096, N = 3584 (the largest of his sweep): fp16 x = -2.3 +
0.5 randn, weight rand, dy = 0.1 randn; outputs y, dL/dx, dL/dweight."""
import torch
from progbuild import load_program

M, N = 4096, 3584
EPS = 1e-5
TOL = {"rtol": 2e-2, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = -2.3 + 0.5 * torch.randn(M, N, device="cuda", generator=g, dtype=torch.float16)
    w = torch.rand(N, device="cuda", generator=g, dtype=torch.float16)
    dy = 0.1 * torch.randn(M, N, device="cuda", generator=g, dtype=torch.float16)
    return (x, w, dy)


def reference(x, w, dy):
    xd, wd, dyd = x.double(), w.double(), dy.double()
    u = torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + EPS)
    y = xd * u * wd
    dx = dyd * u * wd - (xd / N) * (u.pow(3) * dyd * xd * wd).sum(-1, keepdim=True)
    dw = (dyd * u * xd).sum(0)
    return y, dx, dw


def build(path):
    return load_program(path).kf_run
