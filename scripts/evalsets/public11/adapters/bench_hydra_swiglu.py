"""Adapter of p11-hydra-swiglu (kforecast's own code)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p11common as p11  # noqa: E402

SHAPE = (4, 4096, 14336)  # Llama-3-8B's MLP
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs


def make_inputs(seed):
    g = p11.gen(seed)
    gate = torch.randn(*SHAPE, device="cuda", generator=g).to(torch.bfloat16)
    up = torch.randn(*SHAPE, device="cuda", generator=g).to(torch.bfloat16)
    return (gate, up)


def reference(gate, up):
    return torch.nn.functional.silu(gate.double()) * up.double()


def build(path):
    m = p11.load(path)
    if hasattr(m, "USE_FUSED_SWIGLU"):
        m.USE_FUSED_SWIGLU = True  # the module's own switch
    return lambda gate, up: m.fused_swiglu(gate, up)
