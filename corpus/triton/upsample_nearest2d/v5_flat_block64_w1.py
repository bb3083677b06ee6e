"""2x nearest upsampling, flat div/mod indexing as the first version but with tiny
blocks of 64 outputs and 1 warp (2M programs)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = upsample_nearest2d(x); x: f32[8, 64, 256, 256] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def upsample_nearest2d_kernel(x_ptr, y_ptr, NC, H, W, OH, OW, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    offs = tl.program_id(0) * (BLOCK_H * BLOCK_W) + tl.arange(0, BLOCK_H * BLOCK_W)
    mask = offs < NC * OH * OW
    ow = offs % OW
    t = offs // OW
    oh = t % OH
    nc = t // OH
    v = tl.load(x_ptr + nc * H * W + (oh // 2) * W + (ow // 2), mask=mask)
    tl.store(y_ptr + offs, v, mask=mask)


def upsample_nearest2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    oh, ow = 2 * h, 2 * w
    y = torch.empty((n, c, oh, ow), device=x.device, dtype=x.dtype)
    BLOCK_H, BLOCK_W = 1, 64
    grid = (triton.cdiv(n * c * oh * ow, BLOCK_H * BLOCK_W),)
    upsample_nearest2d_kernel[grid](x, y, n * c, h, w, oh, ow, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=1)
    return y
