"""residual_layerscale_dropout: out = x + gamma * (keep * y) / (1 - p) in bfloat16 (a residual
branch with LayerScale and dropout under a given keep mask), Triton wrappers with torch ops:
residual_dropout_add(x bf16 [T, C], y bf16 [T, C], gamma bf16 [C], keep bool [T, C], p) -> [T, C] bf16."""
import torch
from progbuild import load_program

T, C = 32768, 4096  # x, y, out 268 MB each, keep 134 MB
P = 0.1
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16: the eager chain rounds after each of its ops


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(T, C, device="cuda", generator=g).bfloat16()
    y = torch.randn(T, C, device="cuda", generator=g).bfloat16()
    gamma = (0.1 + 0.05 * torch.randn(C, device="cuda", generator=g)).bfloat16()
    keep = torch.rand(T, C, device="cuda", generator=g) >= P
    return x, y, gamma, keep, P


def build(path):
    prog = load_program(path)
    return prog.residual_dropout_add


def reference(x, y, gamma, keep, p):
    z = torch.where(keep, y.double() / (1 - p), torch.zeros((), dtype=torch.float64, device=y.device))
    return x.double() + gamma.double() * z
