"""Adapter of p9-flashattn-rotary (kforecast's own code): flash-attention's
`apply_rotary(x, cos, sin)` (not interleaved, not in place) on a query batch
(4 sequences x 4096 tokens x 32 heads x 128, bf16), cos/sin (4096, 64) bf16."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p9common as kf  # noqa: E402
import p9rotary as rt  # noqa: E402

BATCH, SEQ = 4, 4096
TOL = rt.TOL


def make_inputs(seed):
    g = kf.gen(seed)
    x = torch.randn(BATCH, SEQ, rt.HQ, rt.DIM, device="cuda", generator=g).to(torch.bfloat16)
    cos, sin = rt.tables(SEQ)
    return (x, cos.to(torch.bfloat16), sin.to(torch.bfloat16))


def reference(x, cos, sin):
    return rt.rotate(x, cos, sin)


def build(path):
    f = kf.load(path).apply_rotary
    return lambda x, cos, sin: f(x, cos, sin)
