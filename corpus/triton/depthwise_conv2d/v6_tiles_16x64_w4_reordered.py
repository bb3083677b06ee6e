"""Depthwise 3x3 convolution, padding 1, stride 1, plus bias: the 16 x 64 tile version with
the accumulator started from the bias, the column-offset loop outside the row-offset
loop and renamed variables (same loads, same tiles); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = depthwise_conv2d(x, weight, bias); x: f32[8, 128, 128, 128] randn; weight: f32[128, 3, 3] randn; bias: f32[128] randn; rtol = 1e-4; atol = 1e-5
@triton.jit
def dwconv2d_kernel(x_ptr, w_ptr, b_ptr, y_ptr, NC, C, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    plane = tl.program_id(2)
    ch = plane % C
    rows = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    cols = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    src = x_ptr + plane * H * W
    total = tl.full([BLOCK_H, BLOCK_W], 0.0, tl.float32) + tl.load(b_ptr + ch)
    for dx in tl.static_range(3):
        cc = cols + (dx - 1)
        cc_in = (cc >= 0) & (cc < W)
        for dy in tl.static_range(3):
            rr = rows + (dy - 1)
            rr_in = (rr >= 0) & (rr < H)
            tap = tl.load(w_ptr + ch * 9 + dy * 3 + dx)
            v = tl.load(src + rr[:, None] * W + cc[None, :], mask=rr_in[:, None] & cc_in[None, :], other=0.0)
            total += tap * v
    keep = (rows < H)[:, None] & (cols < W)[None, :]
    tl.store(y_ptr + plane * H * W + rows[:, None] * W + cols[None, :], total, mask=keep)


def depthwise_conv2d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    y = torch.empty_like(x)
    BLOCK_H, BLOCK_W = 16, 64
    grid = (triton.cdiv(w, BLOCK_W), triton.cdiv(h, BLOCK_H), n * c)
    dwconv2d_kernel[grid](x, weight, bias, y, n * c, c, h, w, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
    return y
