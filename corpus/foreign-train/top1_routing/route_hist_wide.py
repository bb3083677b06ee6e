import torch
import triton
import triton.language as tl


@triton.jit
def top1_gate_hist_wide(x_ptr, w_ptr, sel_ptr, g_ptr, hist_ptr, n_tok, n_exp, sx,
                        TOK: tl.constexpr, EXP: tl.constexpr):
    offs_t = tl.program_id(0) * TOK + tl.arange(0, TOK)
    offs_e = tl.arange(0, EXP)
    live = offs_t < n_tok
    vals = tl.load(x_ptr + offs_t.to(tl.int64)[:, None] * sx + offs_e[None, :],
                   mask=live[:, None] & (offs_e < n_exp)[None, :], other=-float("inf"))
    sel = tl.argmax(vals, axis=1)
    tl.store(sel_ptr + offs_t, sel, mask=live)
    hits = tl.where((sel[:, None] == offs_e[None, :]) & live[:, None], 1, 0)
    tl.atomic_add(hist_ptr + offs_e, tl.sum(hits, axis=0), mask=offs_e < n_exp)
    w = tl.load(w_ptr + sel, mask=live, other=0.0)
    tl.store(g_ptr + offs_t, w * tl.sigmoid(tl.max(vals, axis=1)), mask=live)


def custom_kernel(data):
    router_logits, expert_scale = data
    n_tok, n_exp = router_logits.shape
    sel = torch.empty(n_tok, dtype=torch.int32, device=router_logits.device)
    gates = torch.empty(n_tok, dtype=torch.float32, device=router_logits.device)
    hist = torch.zeros(n_exp, dtype=torch.int32, device=router_logits.device)
    TOK = 256
    top1_gate_hist_wide[(triton.cdiv(n_tok, TOK),)](router_logits, expert_scale, sel, gates, hist,
                                                   n_tok, n_exp, router_logits.stride(0),
                                                   TOK=TOK, EXP=triton.next_power_of_2(n_exp),
                                                   num_warps=8)
    return sel, gates, hist
