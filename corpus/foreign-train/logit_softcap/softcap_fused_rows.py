import torch
import triton
import triton.language as tl


@triton.jit
def _softcap_mask_fwd(S, MASK, OUT, seq_len, cap, inv_cap, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)          # (b, h, q) flattened
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    valid = cols < seq_len
    q = row % seq_len
    base = row.to(tl.int64) * seq_len
    s = tl.load(S + base + cols, mask=valid, other=0.0).to(tl.float32)
    masked = tl.load(MASK + q.to(tl.int64) * seq_len + cols, mask=valid)
    e = tl.exp(2.0 * s * inv_cap)
    y = cap * (1.0 - 2.0 / (e + 1.0))
    y = tl.where(masked, float("-inf"), y)
    tl.store(OUT + base + cols, y.to(tl.float16), mask=valid)


def softcap_scores(scores, causal_mask, cap):
    scores = scores.contiguous()
    T = scores.shape[-1]
    out = torch.empty_like(scores)
    rows = scores.numel() // T
    BLOCK_N = 1024
    grid = (rows, triton.cdiv(T, BLOCK_N))
    _softcap_mask_fwd[grid](scores, causal_mask, out, T, cap, 1.0 / cap, BLOCK_N=BLOCK_N, num_warps=4)
    return out
