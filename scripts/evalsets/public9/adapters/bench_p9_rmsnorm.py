"""Adapter of the public9 RMSNorm families (kforecast's own code): a module's
`rmsnorm_forward(x, weight, eps)` (lightllm) or `rms_norm(x, weight, eps)` (lmdeploy),
bf16 tokens x hidden (Llama-2-7B's 4096), as the models call it."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p9common as kf  # noqa: E402

ROWS, HIDDEN, EPS = 16384, 4096, 1e-6
TOL = {"rtol": 2e-2, "atol": 2e-2}  # bf16 outputs


def make_inputs(seed):
    g = kf.gen(seed)
    x = torch.randn(ROWS, HIDDEN, device="cuda", generator=g).to(torch.bfloat16)
    w = (1 + 0.1 * torch.randn(HIDDEN, device="cuda", generator=g)).to(torch.bfloat16)
    return (x, w)


def reference(x, w):
    h = x.double()
    return h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + EPS) * w.double()


def build(path):
    m = kf.load(path)
    f = getattr(m, "rmsnorm_forward", None) or m.rms_norm
    return lambda x, w: kf.first(f(x, w, EPS))
