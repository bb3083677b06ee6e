"""3x3 average pooling, stride 1, padding 1, divide by 9: one program per (plane, output
row) looping over the columns in chunks of 128; out-of-range input rows are skipped
with a scalar branch; 2 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = avg_pool2d(x); x: f32[8, 64, 256, 256] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def avg_pool2d_kernel(x_ptr, y_ptr, NC, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    pid = tl.program_id(0)
    nc = pid // H
    oh = pid % H
    x_plane = x_ptr + nc * H * W
    y_row = y_ptr + pid * W
    for start in range(0, W, BLOCK_W):
        ow = start + tl.arange(0, BLOCK_W)
        out_mask = ow < W
        acc = tl.zeros([BLOCK_W], dtype=tl.float32)
        for kh in tl.static_range(3):
            ih = oh - 1 + kh
            if (ih >= 0) & (ih < H):
                for kw in tl.static_range(3):
                    iw = ow - 1 + kw
                    ok = (iw >= 0) & (iw < W)
                    acc += tl.load(x_plane + ih * W + iw, mask=ok, other=0.0)
        tl.store(y_row + ow, acc / 9.0, mask=out_mask)


def avg_pool2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    y = torch.empty_like(x)
    BLOCK_H, BLOCK_W = 1, 128
    grid = (n * c * h,)
    avg_pool2d_kernel[grid](x, y, n * c, h, w, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=2)
    return y
