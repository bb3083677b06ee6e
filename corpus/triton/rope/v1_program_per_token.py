"""Rotary position embedding (split halves: out1 = x1 cos - x2 sin, out2 = x2 cos +
x1 sin) of x[tokens, heads, head_dim]: one program per token rotates all its heads
as a [heads, 64] tile per half; cos/sin are loaded once per token and broadcast
over the heads; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rope(x, cos, sin); x: f32[8192, 32, 128]; cos: f32[8192, 64]; sin: f32[8192, 64]; rtol = 1e-5; atol = 1e-5
@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, n_heads, HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    token = tl.program_id(0)
    h = tl.arange(0, BLOCK_H)
    d = tl.arange(0, HALF)
    mask = (h[:, None] < n_heads) & (d[None, :] < HALF)
    offs = token * n_heads * (2 * HALF) + h[:, None] * (2 * HALF) + d[None, :]
    x1 = tl.load(x_ptr + offs, mask=mask)
    x2 = tl.load(x_ptr + offs + HALF, mask=mask)
    c = tl.load(cos_ptr + token * HALF + d)[None, :]
    s = tl.load(sin_ptr + token * HALF + d)[None, :]
    tl.store(out_ptr + offs, x1 * c - x2 * s, mask=mask)
    tl.store(out_ptr + offs + HALF, x2 * c + x1 * s, mask=mask)


def rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n_tokens, n_heads, head_dim = x.shape
    out = torch.empty_like(x)
    rope_kernel[(n_tokens,)](x, cos, sin, out, n_heads, HALF=head_dim // 2,
                             BLOCK_H=triton.next_power_of_2(n_heads), num_warps=4)
    return out
