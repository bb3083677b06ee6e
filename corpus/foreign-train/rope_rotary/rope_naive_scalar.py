import torch
import triton
import triton.language as tl


@triton.jit
def rotary_naive(X, OUT, INV_FREQ, seq_len, n_heads, HALF: tl.constexpr):
    # one program per (token, head); a scalar loop over the rotated pairs
    pid = tl.program_id(0)
    tok = pid // n_heads
    pos = (tok % seq_len).to(tl.float32)
    row = pid.to(tl.int64) * (2 * HALF)
    for i in range(HALF):
        theta = pos * tl.load(INV_FREQ + i)
        c = tl.cos(theta)
        s = tl.sin(theta)
        a = tl.load(X + row + i)
        b = tl.load(X + row + HALF + i)
        tl.store(OUT + row + i, a * c - b * s)
        tl.store(OUT + row + HALF + i, b * c + a * s)


def apply_rope(x, inv_freq):
    x = x.contiguous()
    B, S, H, D = x.shape
    out = torch.empty_like(x)
    rotary_naive[(B * S * H,)](x, out, inv_freq, S, H, HALF=D // 2, num_warps=1)
    return out
