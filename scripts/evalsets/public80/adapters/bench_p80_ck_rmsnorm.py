"""Adapter of p80-ck-rmsnorm (kforecast's own code): each version's KFORECAST kf_run(x, w) on
x (32768, 4096) bf16 randn and w (4096,) bf16 1 + 0.1 randn; output RMSNorm(x) * w, bf16, eps 1e-6.
Float64 reference: the same in float64."""
import torch
from progbuild import load_program

ROWS, COLS = 32768, 4096
TOL = {"rtol": 2e-2, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    x = torch.randn(ROWS, COLS, device="cuda", dtype=torch.bfloat16, generator=g)
    w = (1 + 0.1 * torch.randn(COLS, device="cuda", dtype=torch.float32, generator=g)).to(torch.bfloat16)
    return (x, w)


def reference(x, w):
    xd = x.double()
    return w.double() * xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + 1e-6)


def build(path):
    return load_program(path).kf_run
