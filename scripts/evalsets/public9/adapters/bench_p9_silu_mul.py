"""Adapter of the public9 SiLU-and-mul families (kforecast's own code): the fused gate of
a Llama MLP, silu(gate_up[:, :N]) * gate_up[:, N:], bf16 4096 tokens x 2*14336
(Llama-3-8B's intermediate size). lightllm's `silu_and_mul_fwd(input[, output])`
(the output allocated here where that version takes one, as its callers do) and
lmdeploy's `silu_and_mul(gate_up)`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p9common as kf  # noqa: E402

TOKENS, INTER = 4096, 14336
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs


def make_inputs(seed):
    g = kf.gen(seed)
    return (torch.randn(TOKENS, 2 * INTER, device="cuda", generator=g).to(torch.bfloat16),)


def reference(gate_up):
    h = gate_up.double()
    return torch.nn.functional.silu(h[:, :INTER]) * h[:, INTER:]


def build(path):
    m = kf.load(path)
    if hasattr(m, "silu_and_mul_fwd"):
        f = m.silu_and_mul_fwd
        if len(kf.params(f)) >= 2:
            def run(x):
                out = torch.empty(x.shape[0], x.shape[1] // 2, dtype=x.dtype, device=x.device)
                f(x, out)
                return out
            return run
        return lambda x: f(x)
    return lambda x: m.silu_and_mul(x)
