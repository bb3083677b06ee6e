"""2x nearest upsampling from input tiles: each program loads a 16 x 64 input tile once,
duplicates every column with tl.join + reshape into a 16 x 128 tile and stores it to
both output rows 2*ih and 2*ih + 1 (coalesced 512-byte row stores); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = upsample_nearest2d(x); x: f32[8, 64, 256, 256] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def upsample_nearest2d_kernel(x_ptr, y_ptr, NC, H, W, OH, OW, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    nc = tl.program_id(0)
    ih = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    iw = tl.program_id(2) * BLOCK_W + tl.arange(0, BLOCK_W)
    v = tl.load(x_ptr + nc * H * W + ih[:, None] * W + iw[None, :], mask=(ih[:, None] < H) & (iw[None, :] < W))
    # [BLOCK_H, BLOCK_W] -> [BLOCK_H, BLOCK_W, 2] -> [BLOCK_H, 2 * BLOCK_W]: v0 v0 v1 v1 ...
    v2 = tl.reshape(tl.join(v, v), [BLOCK_H, 2 * BLOCK_W])
    ow = tl.program_id(2) * (2 * BLOCK_W) + tl.arange(0, 2 * BLOCK_W)
    out_mask = (ih[:, None] < H) & (ow[None, :] < OW)
    dst = y_ptr + nc * OH * OW + (2 * ih)[:, None] * OW + ow[None, :]
    tl.store(dst, v2, mask=out_mask)
    tl.store(dst + OW, v2, mask=out_mask)


def upsample_nearest2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    oh, ow = 2 * h, 2 * w
    y = torch.empty((n, c, oh, ow), device=x.device, dtype=x.dtype)
    BLOCK_H, BLOCK_W = 16, 64
    grid = (n * c, triton.cdiv(h, BLOCK_H), triton.cdiv(w, BLOCK_W))
    upsample_nearest2d_kernel[grid](x, y, n * c, h, w, oh, ow, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
    return y
