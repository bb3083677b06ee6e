"""Depthwise 3x3 convolution, padding 1, stride 1, plus bias: one program per 8 x 128
output tile (whole 512-byte rows of the 128-wide plane), scalar weights per program;
4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = depthwise_conv2d(x, weight, bias); x: f32[8, 128, 128, 128] randn; weight: f32[128, 3, 3] randn; bias: f32[128] randn; rtol = 1e-4; atol = 1e-5
@triton.jit
def dwconv2d_kernel(x_ptr, w_ptr, b_ptr, y_ptr, NC, C, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    ow = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    nc = tl.program_id(2)
    c = nc % C
    x_plane = x_ptr + nc * H * W
    acc = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
    for kh in tl.static_range(3):
        ih = oh - 1 + kh
        ih_ok = (ih >= 0) & (ih < H)
        for kw in tl.static_range(3):
            iw = ow - 1 + kw
            ok = ih_ok[:, None] & ((iw >= 0) & (iw < W))[None, :]
            wk = tl.load(w_ptr + c * 9 + kh * 3 + kw)  # one scalar per program and tap
            acc += wk * tl.load(x_plane + ih[:, None] * W + iw[None, :], mask=ok, other=0.0)
    acc += tl.load(b_ptr + c)
    out_mask = (oh[:, None] < H) & (ow[None, :] < W)
    tl.store(y_ptr + nc * H * W + oh[:, None] * W + ow[None, :], acc, mask=out_mask)


def depthwise_conv2d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    y = torch.empty_like(x)
    BLOCK_H, BLOCK_W = 8, 128
    grid = (triton.cdiv(w, BLOCK_W), triton.cdiv(h, BLOCK_H), n * c)
    dwconv2d_kernel[grid](x, weight, bias, y, n * c, c, h, w, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
    return y
