"""2x nearest upsampling, flat blocks of 1024 outputs and 4 warps as the first version,
with the index arithmetic rewritten: output row = offs // OW, column = offs - row * OW,
plane and row-in-plane from the row, and the source offset built as
(plane * H + oh // 2) * W + ow // 2."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = upsample_nearest2d(x); x: f32[8, 64, 256, 256] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def upsample_nearest2d_kernel(x_ptr, y_ptr, NC, H, W, OH, OW, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    idx = tl.program_id(0) * (BLOCK_H * BLOCK_W) + tl.arange(0, BLOCK_H * BLOCK_W)
    total = NC * OH * OW
    out_row = idx // OW
    col = idx - out_row * OW
    plane = out_row // OH
    row = out_row - plane * OH
    in_bounds = idx < total
    src = (plane * H + row // 2) * W + col // 2
    tl.store(y_ptr + idx, tl.load(x_ptr + src, mask=in_bounds), mask=in_bounds)


def upsample_nearest2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    oh, ow = 2 * h, 2 * w
    y = torch.empty((n, c, oh, ow), device=x.device, dtype=x.dtype)
    BLOCK_H, BLOCK_W = 1, 1024
    grid = (triton.cdiv(n * c * oh * ow, BLOCK_H * BLOCK_W),)
    upsample_nearest2d_kernel[grid](x, y, n * c, h, w, oh, ow, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
    return y
