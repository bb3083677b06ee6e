"""2x nearest upsampling: one program per (plane, output row) copying input row oh // 2
into it, looping over the output columns in chunks of 512 (one chunk at W = 256);
262144 programs, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = upsample_nearest2d(x); x: f32[8, 64, 256, 256] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def upsample_nearest2d_kernel(x_ptr, y_ptr, NC, H, W, OH, OW, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nc = pid // OH
    oh = pid % OH
    x_row = x_ptr + nc * H * W + (oh // 2) * W
    y_row = y_ptr + pid * OW
    for start in range(0, OW, BLOCK_W):
        ow = start + tl.arange(0, BLOCK_W)
        mask = ow < OW
        tl.store(y_row + ow, tl.load(x_row + ow // 2, mask=mask), mask=mask)


def upsample_nearest2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    oh, ow = 2 * h, 2 * w
    y = torch.empty((n, c, oh, ow), device=x.device, dtype=x.dtype)
    BLOCK_H, BLOCK_W = 1, 512
    grid = (n * c * oh,)
    upsample_nearest2d_kernel[grid](x, y, n * c, h, w, oh, ow, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=4)
    return y
