"""out = x.T + y: tiles of 32 rows x 128 columns of x: x is read in 512-byte row segments, y and
out (two streams) in 128-byte row segments; transposed with tl.trans. 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = add_transpose(x, y); x: f32[8192, 8192] randn; y: f32[8192, 8192] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def add_transpose_kernel(x_ptr, y_ptr, out_ptr, M, N, stride_x, stride_y, stride_o,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)  # rows of x = columns of out
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)  # columns of x = rows of out
    x_mask = (rm[:, None] < M) & (rn[None, :] < N)
    x_tile = tl.load(x_ptr + rm[:, None] * stride_x + rn[None, :], mask=x_mask)
    o_mask = (rn[:, None] < N) & (rm[None, :] < M)
    y_tile = tl.load(y_ptr + rn[:, None] * stride_y + rm[None, :], mask=o_mask)
    tl.store(out_ptr + rn[:, None] * stride_o + rm[None, :], tl.trans(x_tile) + y_tile, mask=o_mask)


def add_transpose(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    assert y.shape == (N, M)
    out = torch.empty((N, M), device=x.device, dtype=x.dtype)
    BLOCK_M, BLOCK_N = 32, 128
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    add_transpose_kernel[grid](x, y, out, M, N, x.stride(0), y.stride(0), out.stride(0),
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
