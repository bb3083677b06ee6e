"""3x3 max pooling, stride 2, padding 1 (NCHW, -inf padding): flat blocks of only 32
outputs per program with a single warp (div/mod indexing, 9 masked loads per output):
32x as many programs, each with one load per thread in flight per tap."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = max_pool2d(x); x: f32[16, 64, 256, 256] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def max_pool2d_kernel(x_ptr, y_ptr, NC, H, W, OH, OW, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    offs = tl.program_id(0) * (BLOCK_H * BLOCK_W) + tl.arange(0, BLOCK_H * BLOCK_W)
    mask = offs < NC * OH * OW
    ow = offs % OW
    t = offs // OW
    oh = t % OH
    nc = t // OH
    base = nc * H * W
    acc = tl.full([BLOCK_H * BLOCK_W], float("-inf"), tl.float32)
    for kh in tl.static_range(3):
        ih = oh * 2 - 1 + kh
        row_ok = mask & (ih >= 0) & (ih < H)
        for kw in tl.static_range(3):
            iw = ow * 2 - 1 + kw
            ok = row_ok & (iw >= 0) & (iw < W)
            v = tl.load(x_ptr + base + ih * W + iw, mask=ok, other=float("-inf"))
            acc = tl.maximum(acc, v)
    tl.store(y_ptr + offs, acc, mask=mask)


def max_pool2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    oh = (h + 2 * 1 - 3) // 2 + 1
    ow = (w + 2 * 1 - 3) // 2 + 1
    y = torch.empty((n, c, oh, ow), device=x.device, dtype=x.dtype)
    BLOCK_H, BLOCK_W = 1, 32
    grid = (triton.cdiv(n * c * oh * ow, BLOCK_H * BLOCK_W),)
    max_pool2d_kernel[grid](x, y, n * c, h, w, oh, ow, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=1)
    return y
