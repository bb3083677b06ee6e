"""Rotary position embedding (split halves: out1 = x1 cos - x2 sin, out2 = x2 cos +
x1 sin) of x[tokens, heads, head_dim]: one program per token works on whole
[heads, 128] rows: each lane loads its own value and its rotation partner at
(d + 64) % 128, picks cos/sin at d % 64 and the sign from the half, and the
program stores full contiguous rows once; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rope(x, cos, sin); x: f32[8192, 32, 128]; cos: f32[8192, 64]; sin: f32[8192, 64]; rtol = 1e-5; atol = 1e-5
@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, n_heads, HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    token = tl.program_id(0)
    h = tl.arange(0, BLOCK_H)
    d = tl.arange(0, 2 * HALF)
    mask = (h[:, None] < n_heads) & (d[None, :] < 2 * HALF)
    row = token * n_heads * (2 * HALF) + h[:, None] * (2 * HALF)
    x = tl.load(x_ptr + row + d[None, :], mask=mask)
    partner = tl.load(x_ptr + row + ((d + HALF) % (2 * HALF))[None, :], mask=mask)
    c = tl.load(cos_ptr + token * HALF + d % HALF)[None, :]
    s = tl.load(sin_ptr + token * HALF + d % HALF)[None, :]
    sign = tl.where(d < HALF, -1.0, 1.0)[None, :]
    tl.store(out_ptr + row + d[None, :], x * c + sign * partner * s, mask=mask)


def rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n_tokens, n_heads, head_dim = x.shape
    out = torch.empty_like(x)
    rope_kernel[(n_tokens,)](x, cos, sin, out, n_heads, HALF=head_dim // 2,
                             BLOCK_H=triton.next_power_of_2(n_heads), num_warps=4)
    return out
