import torch
import triton
import triton.language as tl


@triton.jit
def alibi_flat(X, Y, SLOPES, n_elements, seq_len, n_heads, BLOCK: tl.constexpr):
    # contiguous [B, H, S, S]: (h, i, j) recovered from the flat index
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    j = offs % seq_len
    i = (offs // seq_len) % seq_len
    h = (offs // (seq_len * seq_len)) % n_heads
    slope = tl.load(SLOPES + h, mask=mask, other=0.0)
    x = tl.load(X + offs, mask=mask)
    tl.store(Y + offs, x + slope * (j - i).to(tl.float32), mask=mask)


def alibi_add(scores, slopes):
    scores = scores.contiguous()
    out = torch.empty_like(scores)
    n = scores.numel()
    BLOCK = 1024
    alibi_flat[(triton.cdiv(n, BLOCK),)](scores, out, slopes, n, scores.shape[-1], scores.shape[1],
                                         BLOCK=BLOCK, num_warps=4)
    return out
