"""Adapter of p9-lightllm-context-attention (kforecast's own code): lightllm's prefill
attention over packed sequences (causal, no padding), fp16, 8 sequences of 2048 tokens,
32 heads of 128 (Llama-2-7B). Each revision is called through `context_attention_fwd`,
the name every revision keeps: with (q, k, v, o, b_start_loc, b_seq_len, max_input_len)
where it takes those, and where it takes the prompt-cache arguments, with no cached prefix
(b_prompt_cache_len 0, req_to_token_indexs mapping each request's positions to its own
tokens, b_req_idx 0..7), which computes the same attention. The output o is allocated per
call, as lightllm's layer does."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch  # noqa: E402

import p9common as kf  # noqa: E402

BATCH, SEQ, HEADS, DIM = 8, 2048, 32, 128
TOL = {"rtol": 2e-2, "atol": 1e-2}  # fp16 outputs


def make_inputs(seed):
    g = kf.gen(seed)
    T = BATCH * SEQ
    q, k, v = (torch.randn(T, HEADS, DIM, device="cuda", generator=g).to(torch.float16) for _ in range(3))
    start = torch.arange(0, T, SEQ, device="cuda", dtype=torch.int32)
    seqlen = torch.full((BATCH,), SEQ, device="cuda", dtype=torch.int32)
    req_idx = torch.arange(BATCH, device="cuda", dtype=torch.int32)
    cache_len = torch.zeros(BATCH, device="cuda", dtype=torch.int32)
    req_to_token = (start[:, None] + torch.arange(SEQ, device="cuda", dtype=torch.int32)[None, :]).contiguous()
    return (q, k, v, start, seqlen, req_idx, cache_len, req_to_token)


def reference(q, k, v, start, seqlen, req_idx, cache_len, req_to_token):
    out = []
    for b in range(BATCH):
        s = slice(b * SEQ, (b + 1) * SEQ)
        qb, kb, vb = (t[s].double().transpose(0, 1) for t in (q, k, v))
        out.append(torch.nn.functional.scaled_dot_product_attention(qb, kb, vb, is_causal=True).transpose(0, 1))
    return torch.cat(out)


def build(path):
    f = kf.load(path).context_attention_fwd
    if "req_to_token_indexs" in kf.params(f):
        def run(q, k, v, start, seqlen, req_idx, cache_len, req_to_token):
            o = torch.empty_like(q)
            f(q, k, v, o, req_idx, start, seqlen, cache_len, SEQ, req_to_token)
            return o
    else:
        def run(q, k, v, start, seqlen, req_idx, cache_len, req_to_token):
            o = torch.empty_like(q)
            f(q, k, v, o, start, seqlen, SEQ)
            return o
    return run
