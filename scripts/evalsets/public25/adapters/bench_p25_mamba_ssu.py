"""Adapter of p25-mamba-ssu (kforecast's own code): Mamba's decode step
selective_state_update(state, x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=True) on
state 256 x 5120 x 16 float32 (batch 256, d_inner 5120, d_state 16), x/dt/z 256 x 5120,
A 5120 x 16 (negative), B/C 256 x 16, D/dt_bias 5120. The op updates the state in place and
returns out; the adapter returns (out, the updated state) (the harness hands each checked run a
clone of the inputs; timed calls keep updating one state, as decoding does). The set's `_vendor/` (the commits' own files, einops) goes on sys.path."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import _p25common as kf  # noqa: E402
from progbuild import load_program  # noqa: E402

BATCH, DIM, DSTATE = 256, 5120, 16
TOL = {"rtol": 1e-3, "atol": 1e-4}


def make_inputs(seed):
    g = torch.Generator(device="cuda").manual_seed(seed)

    def r(*shape):
        return torch.randn(*shape, device="cuda", generator=g)
    state = r(BATCH, DIM, DSTATE)
    x = r(BATCH, DIM)
    dt = 0.5 * r(BATCH, DIM)
    A = -torch.exp(0.5 * r(DIM, DSTATE))
    B = r(BATCH, DSTATE)
    C = r(BATCH, DSTATE)
    D = r(DIM)
    z = r(BATCH, DIM)
    dt_bias = torch.log(torch.expm1(torch.exp(torch.rand(DIM, device="cuda", generator=g) * 4.6 - 6.9)))
    return (state, x, dt, A, B, C, D, z, dt_bias)


def reference(state, x, dt, A, B, C, D, z, dt_bias):
    s, x, dt, A, B, C, D, z, dt_bias = (t.double() for t in (state, x, dt, A, B, C, D, z, dt_bias))
    dt = torch.nn.functional.softplus(dt + dt_bias)
    dA = torch.exp(dt[..., None] * A)
    dB = dt[..., None] * B[:, None, :]
    s = s * dA + dB * x[..., None]
    out = (s * C[:, None, :]).sum(-1) + x * D
    out = out * z * torch.sigmoid(z)
    return out, s


def build(path):
    kf.vendor()
    mod = load_program(path)
    f = mod.selective_state_update

    def fn(state, x, dt, A, B, C, D, z, dt_bias):
        out = f(state, x, dt, A, B, C, D=D, z=z, dt_bias=dt_bias, dt_softplus=True)
        return out, state
    return fn
