"""out = x.T + y: the 64 x 64 tl.trans version with y's tile loaded first, the tile
offsets computed from block starts, and renamed variables (same work). 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = add_transpose(x, y); x: f32[8192, 8192] randn; y: f32[8192, 8192] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def add_transpose_kernel(x_ptr, y_ptr, out_ptr, M, N, stride_x, stride_y, stride_o,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    m0 = tl.program_id(0) * BLOCK_M
    n0 = tl.program_id(1) * BLOCK_N
    cols_out = m0 + tl.arange(0, BLOCK_M)
    rows_out = n0 + tl.arange(0, BLOCK_N)
    out_ok = (rows_out[:, None] < N) & (cols_out[None, :] < M)
    out_offs = rows_out[:, None] * stride_o + cols_out[None, :]
    b = tl.load(y_ptr + rows_out[:, None] * stride_y + cols_out[None, :], mask=out_ok)
    a = tl.load(x_ptr + cols_out[:, None] * stride_x + rows_out[None, :],
                mask=(cols_out[:, None] < M) & (rows_out[None, :] < N))
    tl.store(out_ptr + out_offs, b + tl.trans(a), mask=out_ok)


def add_transpose(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    assert y.shape == (N, M)
    out = torch.empty((N, M), device=x.device, dtype=x.dtype)
    BLOCK_M, BLOCK_N = 64, 64
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    add_transpose_kernel[grid](x, y, out, M, N, x.stride(0), y.stride(0), out.stride(0),
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
