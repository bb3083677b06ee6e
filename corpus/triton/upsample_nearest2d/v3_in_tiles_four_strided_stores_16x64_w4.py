"""2x nearest upsampling from input tiles: each program loads a 16 x 64 input tile once
and writes it four times, to (2*ih, 2*iw), (2*ih, 2*iw + 1), (2*ih + 1, 2*iw) and
(2*ih + 1, 2*iw + 1): every store is a stride-2 scatter that fills half of each
sector; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = upsample_nearest2d(x); x: f32[8, 64, 256, 256] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def upsample_nearest2d_kernel(x_ptr, y_ptr, NC, H, W, OH, OW, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    nc = tl.program_id(0)
    ih = tl.program_id(1) * BLOCK_H + tl.arange(0, BLOCK_H)
    iw = tl.program_id(2) * BLOCK_W + tl.arange(0, BLOCK_W)
    mask = (ih[:, None] < H) & (iw[None, :] < W)
    v = tl.load(x_ptr + nc * H * W + ih[:, None] * W + iw[None, :], mask=mask)
    dst = y_ptr + nc * OH * OW + (2 * ih)[:, None] * OW + (2 * iw)[None, :]
    tl.store(dst, v, mask=mask)
    tl.store(dst + 1, v, mask=mask)
    tl.store(dst + OW, v, mask=mask)
    tl.store(dst + OW + 1, v, mask=mask)


def upsample_nearest2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    oh, ow = 2 * h, 2 * w
    y = torch.empty((n, c, oh, ow), device=x.device, dtype=x.dtype)
    BLOCK_H, BLOCK_W = 16, 64
    grid = (n * c, triton.cdiv(h, BLOCK_H), triton.cdiv(w, BLOCK_W))
    upsample_nearest2d_kernel[grid](x, y, n * c, h, w, oh, ow, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
    return y
