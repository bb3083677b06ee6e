"""Adapter of p85-tb-rmsnorm (kforecast's own code): each version's KFORECAST kf_run(x, w) (the
version's own RMSNorm wrapper) on x (16384, 4096) fp16 randn and w (4096,) fp16 randn; output y
(16384, 4096) fp16. Float64 reference: x / sqrt(mean(x^2, -1) + 1e-6) * w in float64. The
tolerance allows fp16 output rounding (|y| up to ~20, one fp16 ulp 0.0156 at 16) and the
candidates' own eps defaults (1e-5 or 1e-6: a relative change under 1e-5 here)."""
import torch
from progbuild import load_program

ROWS, COLS = 16384, 4096
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    x = torch.randn(ROWS, COLS, device="cuda", dtype=torch.float16, generator=g)
    w = torch.randn(COLS, device="cuda", dtype=torch.float16, generator=g)
    return x, w


def reference(x, w):
    xd = x.double()
    return xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double()


def build(path):
    return load_program(path).kf_run
