"""Adapter of p9-lightllm-rotary (kforecast's own code): lightllm's in-place
`rotary_emb_fwd(q, cos, sin)` (called on q, then on k, as its model code did) or
`rotary_emb_fwd(q, k, cos, sin)` (one call), cos/sin (tokens, head_dim / 2) bf16."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p9common as kf  # noqa: E402
import p9rotary as rt  # noqa: E402

TOL = rt.TOL


def make_inputs(seed):
    g = kf.gen(seed)
    q, k = rt.qk(g)
    cos, sin = rt.tables()
    return (q, k, cos.to(torch.bfloat16), sin.to(torch.bfloat16))


def reference(q, k, cos, sin):
    return rt.rotate(q, cos, sin), rt.rotate(k, cos, sin)


def build(path):
    f = kf.load(path).rotary_emb_fwd
    if "k" in kf.params(f):
        def run(q, k, cos, sin):
            f(q, k, cos, sin)
            return q, k
    else:
        def run(q, k, cos, sin):
            f(q, cos, sin)
            f(k, cos, sin)
            return q, k
    return run
