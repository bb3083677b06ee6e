"""Adapter of p48-in-swiglu (kforecast's own code): each commit's `kf_run(gate_up, grad_out)`
(the file's fused_swiglu, forward then backward) on fp16 gate_up (16384, 2048) = [gate | up] and
grad_out (16384, 1024) (the author's bench size M=16384, I=1024); outputs (out, grad_gate_up)."""
import torch
from progbuild import load_program

M, I = 16384, 1024
TOL = {"rtol": 1e-2, "atol": 1e-2}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    gate_up = torch.randn(M, 2 * I, device="cuda", generator=g).half()
    grad_out = torch.randn(M, I, device="cuda", generator=g).half()
    return (gate_up, grad_out)


def reference(gate_up, grad_out):
    x = gate_up.double()
    gate, up = x[:, :I], x[:, I:]
    s = torch.sigmoid(gate)
    out = gate * s * up
    go = grad_out.double()
    d_gate = go * up * (s * (1 + gate * (1 - s)))
    d_up = go * gate * s
    return out, torch.cat([d_gate, d_up], dim=1)


def build(path):
    return load_program(path).kf_run
