"""Adapter of p9-lmdeploy-rotary (kforecast's own code): lmdeploy's
`apply_rotary_pos_emb(q, k, cos, sin)` -> (q_embed, k_embed), cos/sin (tokens, head_dim)
bf16 (the two halves equal, as its rotary module builds them). The oldest version takes
the tokens' position ids too: `position_ids` (1, tokens) and `position_ids_1d` (tokens),
here 0..tokens-1, the positions the tables were made for."""
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
    return (q, k, torch.cat((cos, cos), -1).to(torch.bfloat16), torch.cat((sin, sin), -1).to(torch.bfloat16))


def reference(q, k, cos, sin):
    half = rt.DIM // 2
    return rt.rotate(q, cos[:, :half], sin[:, :half]), rt.rotate(k, cos[:, :half], sin[:, :half])


def build(path):
    f = kf.load(path).apply_rotary_pos_emb
    if "position_ids_1d" in kf.params(f):
        pos = torch.arange(rt.TOKENS, device="cuda")
        return lambda q, k, cos, sin: f(q, k, cos, sin, position_ids=pos[None], position_ids_1d=pos)
    return lambda q, k, cos, sin: f(q, k, cos, sin)
