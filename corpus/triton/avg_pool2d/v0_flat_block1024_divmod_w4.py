"""3x3 average pooling, stride 1, padding 1, divide by 9 (NCHW): one program per flat
block of 1024 outputs, (plane, row, column) recovered with div/mod, 9 masked loads per
output; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = avg_pool2d(x); x: f32[8, 64, 256, 256] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def avg_pool2d_kernel(x_ptr, y_ptr, NC, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    offs = tl.program_id(0) * (BLOCK_H * BLOCK_W) + tl.arange(0, BLOCK_H * BLOCK_W)
    mask = offs < NC * H * W
    ow = offs % W
    t = offs // W
    oh = t % H
    nc = t // H
    base = nc * H * W
    acc = tl.zeros([BLOCK_H * BLOCK_W], dtype=tl.float32)
    for kh in tl.static_range(3):
        ih = oh - 1 + kh
        row_ok = mask & (ih >= 0) & (ih < H)
        for kw in tl.static_range(3):
            iw = ow - 1 + kw
            ok = row_ok & (iw >= 0) & (iw < W)
            acc += tl.load(x_ptr + base + ih * W + iw, mask=ok, other=0.0)
    tl.store(y_ptr + offs, acc / 9.0, mask=mask)


def avg_pool2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    y = torch.empty_like(x)
    BLOCK_H, BLOCK_W = 1, 1024
    grid = (triton.cdiv(n * c * h * w, BLOCK_H * BLOCK_W),)
    avg_pool2d_kernel[grid](x, y, n * c, h, w, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
    return y
