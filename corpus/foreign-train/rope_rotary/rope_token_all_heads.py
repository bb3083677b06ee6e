import torch
import triton
import triton.language as tl


@triton.jit
def _rope_token_kernel(X, Y, FREQ, seq_len, n_heads,
                       BLOCK_H: tl.constexpr, HALF: tl.constexpr):
    # one program per token: cos/sin computed once, applied to every head
    tok = tl.program_id(0)
    pos = (tok % seq_len).to(tl.float32)
    d = tl.arange(0, HALF)
    h = tl.arange(0, BLOCK_H)
    theta = pos * tl.load(FREQ + d)
    cs = tl.cos(theta)[None, :]
    sn = tl.sin(theta)[None, :]
    ptr = tok.to(tl.int64) * n_heads * (2 * HALF) + h[:, None] * (2 * HALF) + d[None, :]
    m = (h < n_heads)[:, None]
    a = tl.load(X + ptr, mask=m, other=0.0)
    b = tl.load(X + ptr + HALF, mask=m, other=0.0)
    tl.store(Y + ptr, a * cs - b * sn, mask=m)
    tl.store(Y + ptr + HALF, b * cs + a * sn, mask=m)


def apply_rope(x, inv_freq):
    x = x.contiguous()
    B, S, H, D = x.shape
    y = torch.empty_like(x)
    _rope_token_kernel[(B * S,)](x, y, inv_freq, S, H,
                                 BLOCK_H=triton.next_power_of_2(H), HALF=D // 2, num_warps=8)
    return y
