import torch
import triton
import triton.language as tl


@triton.jit
def tanh_softcap_kernel(x_ptr, y_ptr, n_elements, cap, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    e = tl.exp(2.0 * x / cap)
    tl.store(y_ptr + offs, (cap * (1.0 - 2.0 / (e + 1.0))).to(tl.float16), mask=mask)


def softcap_scores(scores, causal_mask, cap):
    out = torch.empty_like(scores)
    n = scores.numel()
    BLOCK_SIZE = 2048
    tanh_softcap_kernel[(triton.cdiv(n, BLOCK_SIZE),)](scores, out, n, cap, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out.masked_fill_(causal_mask, float("-inf"))
