"""3x3 max pooling, stride 2, padding 1: one program per (plane, output row) looping over
the output columns in chunks of 64 (3 input rows per program, no div/mod per element);
2 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = max_pool2d(x); x: f32[16, 64, 256, 256] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def max_pool2d_kernel(x_ptr, y_ptr, NC, H, W, OH, OW, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nc = pid // OH
    oh = pid % OH
    x_plane = x_ptr + nc * H * W
    y_row = y_ptr + pid * OW
    for start in range(0, OW, BLOCK_W):
        ow = start + tl.arange(0, BLOCK_W)
        out_mask = ow < OW
        acc = tl.full([BLOCK_W], float("-inf"), tl.float32)
        for kh in tl.static_range(3):
            ih = oh * 2 - 1 + kh
            if (ih >= 0) & (ih < H):
                for kw in tl.static_range(3):
                    iw = ow * 2 - 1 + kw
                    ok = out_mask & (iw >= 0) & (iw < W)
                    v = tl.load(x_plane + ih * W + iw, mask=ok, other=float("-inf"))
                    acc = tl.maximum(acc, v)
        tl.store(y_row + ow, acc, mask=out_mask)


def max_pool2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    oh = (h + 2 * 1 - 3) // 2 + 1
    ow = (w + 2 * 1 - 3) // 2 + 1
    y = torch.empty((n, c, oh, ow), device=x.device, dtype=x.dtype)
    BLOCK_H, BLOCK_W = 1, 64
    grid = (n * c * oh,)
    max_pool2d_kernel[grid](x, y, n * c, h, w, oh, ow, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=2)
    return y
