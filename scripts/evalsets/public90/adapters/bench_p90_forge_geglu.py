"""Adapter of p90-forge-geglu (kforecast's own code): each version's KFORECAST kf_run(gate, up,
gate_up) (the version's own GEGLU forward launcher, its default tanh approximation) on gate and
up (8192, 14336) bf16 randn (Gemma-style intermediate width, 8192 tokens) and gate_up = cat(gate,
up) along the last dim, (8192, 28672) (the packed layout the packed launchers read; the unpacked
ones read gate and up); output gelu_tanh(gate) * up, (8192, 14336) bf16. Float64 reference: the
same in float64. The tolerance allows the bf16 roundings (activation, then the product)."""
import math

import torch
from progbuild import load_program

ROWS, COLS = 8192, 14336
TOL = {"rtol": 2e-2, "atol": 2e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(int(seed))
    gate = torch.randn(ROWS, COLS, device="cuda", dtype=torch.bfloat16, generator=g)
    up = torch.randn(ROWS, COLS, device="cuda", dtype=torch.bfloat16, generator=g)
    return gate, up, torch.cat([gate, up], -1).contiguous()


def reference(gate, up, gate_up):
    x = gate.double()
    act = 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x.pow(3))))
    return act * up.double()


def build(path):
    return load_program(path).kf_run
