"""Adapter of the p16-agent-rmsnorm family (kforecast's own code).

Each version is a module with `run(x, residual, weight, eps)` (residual add + RMSNorm, the
task's reference or an agent's Triton candidate). x is (1, ROWS, 2048) bf16, residual
(ROWS, 2048), weight (2048,)."""
import torch

from progbuild import load_program  # the harness puts its folder on sys.path

ROWS, HIDDEN = 8192, 2048
EPS = 1e-6
TOL = {"rtol": 1.6e-2, "atol": 1e-2}  # bf16 output


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(1, ROWS, HIDDEN, device="cuda", generator=g).to(torch.bfloat16)
    residual = torch.randn(ROWS, HIDDEN, device="cuda", generator=g).to(torch.bfloat16)
    weight = (1.0 + 0.1 * torch.randn(HIDDEN, device="cuda", generator=g)).to(torch.bfloat16)
    return (x, residual, weight)


def reference(x, residual, weight):
    s = x.double() + residual.double()
    inv = torch.rsqrt(s.pow(2).mean(-1, keepdim=True) + EPS)
    return s * inv * weight.double()


def build(path):
    mod = load_program(path)
    return lambda x, residual, weight: mod.run(x, residual, weight, EPS)
