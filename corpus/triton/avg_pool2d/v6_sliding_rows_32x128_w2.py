"""3x3 average pooling, stride 1, padding 1, divide by 9, separable with a sliding window:
each program owns 32 output rows x 128 columns of one plane and walks down them,
computing each input row's horizontal 3-sum once (3 loads) and keeping the last two
in registers, so an output costs ~3 loads instead of 9; 2 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = avg_pool2d(x); x: f32[8, 64, 256, 256] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def avg_pool2d_kernel(x_ptr, y_ptr, NC, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    ow = tl.program_id(0) * BLOCK_W + tl.arange(0, BLOCK_W)
    row0 = tl.program_id(1) * BLOCK_H
    nc = tl.program_id(2)
    x_plane = x_ptr + nc * H * W
    y_plane = y_ptr + nc * H * W
    mid_ok = ow < W
    left_ok = (ow >= 1) & (ow - 1 < W)
    right_ok = ow + 1 < W
    # horizontal sums of input rows row0 - 1 (zero padding above the plane) and row0
    up = row0 - 1
    up_ok = up >= 0
    p = x_plane + up * W + ow
    h_prev = (tl.load(p - 1, mask=left_ok & up_ok, other=0.0) + tl.load(p, mask=mid_ok & up_ok, other=0.0)
              + tl.load(p + 1, mask=right_ok & up_ok, other=0.0))
    p = x_plane + row0 * W + ow
    h_cur = tl.load(p - 1, mask=left_ok, other=0.0) + tl.load(p, mask=mid_ok, other=0.0) + tl.load(p + 1, mask=right_ok, other=0.0)
    for r in range(row0, row0 + BLOCK_H):
        nxt = r + 1
        nxt_ok = nxt < H
        p = x_plane + nxt * W + ow
        h_next = (tl.load(p - 1, mask=left_ok & nxt_ok, other=0.0) + tl.load(p, mask=mid_ok & nxt_ok, other=0.0)
                  + tl.load(p + 1, mask=right_ok & nxt_ok, other=0.0))
        tl.store(y_plane + r * W + ow, (h_prev + h_cur + h_next) / 9.0, mask=mid_ok & (r < H))
        h_prev = h_cur
        h_cur = h_next


def avg_pool2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    y = torch.empty_like(x)
    BLOCK_H, BLOCK_W = 32, 128
    grid = (triton.cdiv(w, BLOCK_W), triton.cdiv(h, BLOCK_H), n * c)
    avg_pool2d_kernel[grid](x, y, n * c, h, w, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=2)
    return y
