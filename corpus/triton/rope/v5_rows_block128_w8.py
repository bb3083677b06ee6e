"""Rotary position embedding (split halves: out1 = x1 cos - x2 sin, out2 = x2 cos +
x1 sin) of x[tokens, heads, head_dim] seen as rows of (token, head): each program
rotates 128 rows (4 tokens) as [128, 64] tiles per half, each row gathering cos/sin of its
token (row // heads); 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rope(x, cos, sin); x: f32[8192, 32, 128]; cos: f32[8192, 64]; sin: f32[8192, 64]; rtol = 1e-5; atol = 1e-5
@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, n_rows, n_heads, HALF: tl.constexpr, BLOCK_R: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    d = tl.arange(0, HALF)
    mask = (rows[:, None] < n_rows) & (d[None, :] < HALF)
    offs = rows[:, None] * (2 * HALF) + d[None, :]
    cs_offs = (rows // n_heads)[:, None] * HALF + d[None, :]
    x1 = tl.load(x_ptr + offs, mask=mask)
    x2 = tl.load(x_ptr + offs + HALF, mask=mask)
    c = tl.load(cos_ptr + cs_offs, mask=mask)
    s = tl.load(sin_ptr + cs_offs, mask=mask)
    tl.store(out_ptr + offs, x1 * c - x2 * s, mask=mask)
    tl.store(out_ptr + offs + HALF, x2 * c + x1 * s, mask=mask)


def rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n_tokens, n_heads, head_dim = x.shape
    out = torch.empty_like(x)
    n_rows = n_tokens * n_heads
    BLOCK_R = 128
    rope_kernel[(triton.cdiv(n_rows, BLOCK_R),)](x, cos, sin, out, n_rows, n_heads, HALF=head_dim // 2,
                                                 BLOCK_R=BLOCK_R, num_warps=8)
    return out
