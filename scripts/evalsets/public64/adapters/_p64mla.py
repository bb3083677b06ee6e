"""Shared by the public64 MLA-decode adapters (kforecast's own code; pub64.py copies it into the
set's root). Inputs come from the problem's own generate_input (its reference.py, a helper in the
family folder). A decode step appends one row to the KV cache: the cache's seq_len is set back to
the prefill length before every call, so each call does the same work. Compared: the output
(batch, 1, 7168) and the appended cache row. The float64 reference is the problem's forward written
out in torch with the weight absorption (the same function), RoPE through the problem's own RoPE
module (its bf16 angle tables, as every version reproduces them)."""
import math
import os

import torch

import _p64fe as fe

# the problem's own check: make_match_reference(ref_kernel, rtol=2e-02, atol=8e-03)
TOL = {"rtol": 2e-2, "atol": 8e-3}


def _ref(fam_dir):
    return fe.load(os.path.join(fam_dir, "reference.py"))


def make_inputs(fam_dir, batch, prefill, base_seed, seed):
    config, x, kv_cache = _ref(fam_dir).generate_input(batchsize=batch, dim=7168, dq=1536, prefill=prefill,
                                                        seed=(base_seed + seed) % (1 << 31))
    return (config, x, kv_cache)


def reference(fam_dir, prefill, config, x, kv_cache):
    c, P = config, prefill
    B, H = x.size(0), c.n_heads
    dn, dr, dv, r = c.qk_nope_head_dim, c.qk_rope_head_dim, c.v_head_dim, c.kv_lora_rank
    x2 = x[:, 0].double()
    q_lora = x2 @ c.Q_proj_down_weight.double().T
    kv_new = x2 @ c.KV_proj_down_weight.double().T
    kv_all = torch.cat([kv_cache.data[:, :P].double(), kv_new[:, None]], 1)
    L = P + 1
    q = (q_lora @ c.Q_proj_up_weight.double().T).view(B, H, dn + dr)
    q_nope, q_rope = q[..., :dn], q[..., dn:]
    rope = _ref(fam_dir).RoPE(dr).to(x.device)
    q_rope = rope(q_rope.unsqueeze(2), start_pos=L - 1).squeeze(2)
    kv_nope, k_rope = kv_all[..., :r], kv_all[..., r:]
    k_rope = rope(k_rope)
    w = c.KV_proj_up_weight.double().view(H, dn + dv, r)
    wk, wv = w[:, :dn], w[:, dn:]
    q_lat = torch.einsum("bhn,hnc->bhc", q_nope, wk)
    s = torch.einsum("bhc,blc->bhl", q_lat, kv_nope) + torch.einsum("bhr,blr->bhl", q_rope, k_rope)
    attn = torch.softmax(s / math.sqrt(dn + dr), dim=-1)
    ctx = torch.einsum("bhl,blc->bhc", attn, kv_nope)
    o = torch.einsum("bhc,hvc->bhv", ctx, wv).reshape(B, 1, H * dv)
    return (o @ c.wo_weight.double().T, kv_new)


def build(path, prefill):
    def call(entry, config, x, kv_cache):
        kv_cache.seq_len = prefill
        with torch.no_grad():
            out, kv = entry((config, x, kv_cache))
        # the row is a view of the shared cache, which the next call overwrites: copy it
        return (out, kv[:, prefill].clone())

    return fe.build(path, call)
