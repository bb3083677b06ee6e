"""Adapter of p90-forge-rmsnorm (kforecast's own code): each version's KFORECAST kf_run(x, w) (the
version's own RMSNorm forward launcher, eps 1e-6, llama casting where the version has modes) on
x (16384, 4096) bf16 randn (Qwen3-8B hidden size, 16384 tokens) and w (4096,) bf16 randn; output
y (16384, 4096) bf16. Float64 reference: x / sqrt(mean(x^2, -1) + 1e-6) * w in float64. The
tolerance allows the bf16 roundings (normed rounded to bf16 before the weight product, then the
product: two bf16 ulps, 2^-8 relative each, |y| up to ~20)."""
import torch
from progbuild import load_program

ROWS, COLS = 16384, 4096
TOL = {"rtol": 2e-2, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    x = torch.randn(ROWS, COLS, device="cuda", dtype=torch.bfloat16, generator=g)
    w = torch.randn(COLS, device="cuda", dtype=torch.bfloat16, generator=g)
    return x, w


def reference(x, w):
    xd = x.double()
    return xd * torch.rsqrt(xd.pow(2).mean(-1, keepdim=True) + 1e-6) * w.double()


def build(path):
    return load_program(path).kf_run
