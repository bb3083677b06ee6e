"""Adapter of p90-forge-rmsnorm-fwdbwd (kforecast's own code): each version's KFORECAST
kf_run(x, w, dy) (the version's own RMSNorm forward launcher, then its backward launcher on the
forward's saved x, w, rstd; eps 1e-6) on x (16384, 4096) fp32 randn, w (4096,) fp32 1 + 0.1 randn
(near the ones RMSNorm weights start from) and dy (16384, 4096) fp32 randn; outputs y, dx (16384,
4096) and dw (4096,), fp32. fp32 because v1 accumulates dw from dy times the normed row rounded to
the input dtype (a bf16 run would put ~0.3 of rounding noise into dw entries of size ~128, more
than any one tolerance fits beside dx). Float64 reference: y = xhat w, dx = rstd (g - xhat
mean(g xhat)) with g = dy w, dw = sum over rows of dy xhat, in float64. v4 writes dx into dy's
buffer (its default in-place backward): the checks clone the inputs, timing reuses them."""
import torch
from progbuild import load_program

ROWS, COLS = 16384, 4096
TOL = {"rtol": 1e-3, "atol": 1e-3}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    x = torch.randn(ROWS, COLS, device="cuda", dtype=torch.float32, generator=g)
    w = 1.0 + 0.1 * torch.randn(COLS, device="cuda", dtype=torch.float32, generator=g)
    dy = torch.randn(ROWS, COLS, device="cuda", dtype=torch.float32, generator=g)
    return x, w, dy


def reference(x, w, dy):
    xd, wd, dyd = x.double(), w.double(), dy.double()
    rstd = torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + 1e-6)
    xhat = xd * rstd
    gd = dyd * wd
    dx = rstd * (gd - xhat * (gd * xhat).mean(-1, keepdim=True))
    return xhat * wd, dx, (dyd * xhat).sum(0)


def build(path):
    return load_program(path).kf_run
