"""Depthwise 3x3 convolution, padding 1, stride 1, plus bias (NCHW): one program per flat
block of 1024 outputs, (plane, row, column, channel) recovered with div/mod, the 9
weights and the bias gathered per element with vector loads; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = depthwise_conv2d(x, weight, bias); x: f32[8, 128, 128, 128] randn; weight: f32[128, 3, 3] randn; bias: f32[128] randn; rtol = 1e-4; atol = 1e-5
@triton.jit
def dwconv2d_kernel(x_ptr, w_ptr, b_ptr, y_ptr, NC, C, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    offs = tl.program_id(0) * (BLOCK_H * BLOCK_W) + tl.arange(0, BLOCK_H * BLOCK_W)
    mask = offs < NC * H * W
    ow = offs % W
    t = offs // W
    oh = t % H
    nc = t // H
    c = nc % C
    x_plane = x_ptr + nc * H * W
    acc = tl.zeros([BLOCK_H * BLOCK_W], dtype=tl.float32)
    for kh in tl.static_range(3):
        ih = oh - 1 + kh
        row_ok = mask & (ih >= 0) & (ih < H)
        for kw in tl.static_range(3):
            iw = ow - 1 + kw
            ok = row_ok & (iw >= 0) & (iw < W)
            wv = tl.load(w_ptr + c * 9 + kh * 3 + kw, mask=mask, other=0.0)
            xv = tl.load(x_plane + ih * W + iw, mask=ok, other=0.0)
            acc += wv * xv
    acc += tl.load(b_ptr + c, mask=mask, other=0.0)
    tl.store(y_ptr + offs, acc, mask=mask)


def depthwise_conv2d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    y = torch.empty_like(x)
    BLOCK_H, BLOCK_W = 1, 1024
    grid = (triton.cdiv(n * c * h * w, BLOCK_H * BLOCK_W),)
    dwconv2d_kernel[grid](x, weight, bias, y, n * c, c, h, w, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
    return y
