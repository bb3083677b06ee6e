"""Rotary position embedding (split halves: out1 = x1 cos - x2 sin, out2 = x2 cos +
x1 sin) of x[tokens, heads, head_dim]: one program per token, [heads, 64] tiles
per half, cos/sin broadcast over the heads, 4 warps; same as the per-token
version with the pointers built up front and the second half written first."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rope(x, cos, sin); x: f32[8192, 32, 128]; cos: f32[8192, 64]; sin: f32[8192, 64]; rtol = 1e-5; atol = 1e-5
@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, n_heads, HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    pid = tl.program_id(0)
    head = tl.arange(0, BLOCK_H)[:, None]
    lane = tl.arange(0, HALF)[None, :]
    keep = (head < n_heads) & (lane < HALF)
    lo_in = x_ptr + (pid * n_heads + head) * (2 * HALF) + lane
    lo_out = out_ptr + (pid * n_heads + head) * (2 * HALF) + lane
    sin_v = tl.load(sin_ptr + pid * HALF + lane)
    cos_v = tl.load(cos_ptr + pid * HALF + lane)
    a = tl.load(lo_in, mask=keep)
    b = tl.load(lo_in + HALF, mask=keep)
    tl.store(lo_out + HALF, b * cos_v + a * sin_v, mask=keep)
    tl.store(lo_out, a * cos_v - b * sin_v, mask=keep)


def rope(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n_tokens, n_heads, head_dim = x.shape
    out = torch.empty_like(x)
    rope_kernel[(n_tokens,)](x, cos, sin, out, n_heads, HALF=head_dim // 2,
                             BLOCK_H=triton.next_power_of_2(n_heads), num_warps=4)
    return out
