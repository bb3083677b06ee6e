"""3x3 average pooling, stride 1, padding 1, divide by 9: tall narrow 64 x 16 output
tiles (64-byte row segments, the shifted column loads straddle extra sectors); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = avg_pool2d(x); x: f32[8, 64, 256, 256] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def avg_pool2d_kernel(x_ptr, y_ptr, NC, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    ow = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    oh = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    nc = tl.program_id(2)
    x_plane = x_ptr + nc * H * W
    y_plane = y_ptr + nc * H * W
    acc = tl.zeros([BLOCK_H, BLOCK_W], dtype=tl.float32)
    for kh in tl.static_range(3):
        ih = oh - 1 + kh
        ih_ok = (ih >= 0) & (ih < H)
        for kw in tl.static_range(3):
            iw = ow - 1 + kw
            ok = ih_ok[:, None] & ((iw >= 0) & (iw < W))[None, :]
            acc += tl.load(x_plane + ih[:, None] * W + iw[None, :], mask=ok, other=0.0)
    out_mask = (oh[:, None] < H) & (ow[None, :] < W)
    tl.store(y_plane + oh[:, None] * W + ow[None, :], acc / 9.0, mask=out_mask)


def avg_pool2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    y = torch.empty_like(x)
    BLOCK_H, BLOCK_W = 64, 16
    grid = (triton.cdiv(w, BLOCK_W), triton.cdiv(h, BLOCK_H), n * c)
    avg_pool2d_kernel[grid](x, y, n * c, h, w, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
    return y
