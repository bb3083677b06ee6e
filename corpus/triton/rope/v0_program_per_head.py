"""Rotary position embedding (split halves: out1 = x1 cos - x2 sin, out2 = x2 cos +
x1 sin) of x[tokens, heads, head_dim]: one program per (token, head) row of 128
values, two 64-wide half loads; default 4 warps for 64 lanes."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rope(x, cos, sin); x: f32[8192, 32, 128]; cos: f32[8192, 64]; sin: f32[8192, 64]; rtol = 1e-5; atol = 1e-5
@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, n_heads, HALF: tl.constexpr):
    pid = tl.program_id(0)
    token = pid // n_heads
    d = tl.arange(0, HALF)
    base = pid * (2 * HALF)
    x1 = tl.load(x_ptr + base + d)
    x2 = tl.load(x_ptr + base + HALF + d)
    c = tl.load(cos_ptr + token * HALF + d)
    s = tl.load(sin_ptr + token * HALF + d)
    tl.store(out_ptr + base + d, x1 * c - x2 * s)
    tl.store(out_ptr + base + HALF + d, x2 * c + x1 * s)


def rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n_tokens, n_heads, head_dim = x.shape
    out = torch.empty_like(x)
    rope_kernel[(n_tokens * n_heads,)](x, cos, sin, out, n_heads, HALF=head_dim // 2)
    return out
