"""Shared by the public87 adapters (kforecast's own code; pub87.py copies it into the set's root).

GPU MODE `amd-mixture-of-experts` (the AMD x GPU MODE challenge's DeepSeek-style MoE layer, fp16):
input x (bs, seqlen, d_hidden) fp16, a dict of fp16 weights (a router (E, d_hidden), E routed
SwiGLU experts and one shared expert, each gate / up (d_hidden, d_expert) and down
(d_expert, d_hidden), used as x @ W) and the config dict; output (bs, seqlen, d_hidden) fp16.
Every version's KFORECAST kf_run(data) makes the leaderboard's call, custom_kernel(data)
(ref_kernel(data) for the problem's reference.py).

- `make_inputs(fam_dir, cfg, base_seed, seed)`: the problem's own generate_input (from the
  reference.py copied into the family folder) at the family's shape, seeded with the problem's
  benchmark seed plus the harness's draw; (x, weights, config). The harness clones x for every run;
  the weights dict is shared (no version writes into it).
- `reference(x, weights, config)`: the MoE in float64: routing as the problem's ref_kernel does
  it (fp16 router logits, fp16 softmax, top-k of the fp16 scores: that picks the experts, so it is
  taken as the problem computes it), then the shared expert and the routed experts' SwiGLU in
  float64, each routed output weighted by its fp16 score and added per token.
- `build(path)`: the version imported with progbuild's load_program, the family folder first on
  sys.path so the sources' flat imports (`from task import ...`, reference.py's
  `from utils import ...`) find the problem's helpers copied beside them.
"""

import os
import sys

import torch

import progbuild

# the problem's own check: make_match_reference(ref_kernel, rtol=1e-2, atol=1e-2)
TOL = {"rtol": 1e-2, "atol": 1e-2}


def _enter(fam_dir):
    if fam_dir in sys.path:
        sys.path.remove(fam_dir)
    sys.path.insert(0, fam_dir)


def make_inputs(fam_dir, cfg, base_seed, seed):
    _enter(fam_dir)
    ref = progbuild.load_program(os.path.join(fam_dir, "reference.py"))
    x, weights, config = ref.generate_input(seed=(base_seed + int(seed)) % (1 << 31), **cfg)
    return (x, weights, config)


def _swiglu(h, gate, up, down):
    F = torch.nn.functional
    return (F.silu(h @ gate.double()) * (h @ up.double())) @ down.double()


def reference(x, weights, config):
    F = torch.nn.functional
    k, n_exp = config["n_experts_per_token"], config["n_routed_experts"]
    with torch.no_grad():
        scores = F.linear(x, weights["router.weight"]).softmax(dim=-1)
        top_s, top_i = torch.topk(scores, k=k, dim=-1, sorted=False)
        xd = x.reshape(-1, x.shape[-1]).double()
        out = _swiglu(xd, weights["shared_experts.0.weight"], weights["shared_experts.1.weight"],
                      weights["shared_experts.2.weight"])
        idx = top_i.reshape(-1)
        w = top_s.reshape(-1).double()
        tok = torch.arange(xd.shape[0], device=x.device).repeat_interleave(k)
        for e in range(n_exp):
            sel = (idx == e).nonzero().flatten()
            if sel.numel() == 0:
                continue
            t = tok[sel]
            y = _swiglu(xd[t], weights[f"experts.{e}.0.weight"], weights[f"experts.{e}.1.weight"],
                        weights[f"experts.{e}.2.weight"]) * w[sel, None]
            out.index_add_(0, t, y)
    return out.reshape(x.shape)


def build(path):
    _enter(os.path.dirname(os.path.abspath(path)))
    entry = progbuild.load_program(path).kf_run

    def fn(x, weights, config):
        out = entry((x, weights, config))
        return out[0] if isinstance(out, (tuple, list)) else out

    return fn
