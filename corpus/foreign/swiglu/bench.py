"""swiglu: Triton programs, swiglu(x fp16 [tokens, 2*inter]) -> silu(x[:, :inter]) * x[:, inter:]."""
import torch
from progbuild import load_program

TOKENS, INTER = 8192, 8192
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return ((2 * torch.randn(TOKENS, 2 * INTER, device="cuda", generator=g)).half(),)


def build(path):
    return load_program(path).swiglu


def reference(x):
    gate, up = x.double().chunk(2, dim=-1)
    return torch.nn.functional.silu(gate) * up
