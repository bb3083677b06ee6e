"""out = x.T + y, naive: one program per flat block of 1024 elements of out, (row, col)
recovered with div/mod; y and out are accessed contiguously but x is read with a
stride of N * 4 bytes between neighbouring lanes. 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = add_transpose(x, y); x: f32[8192, 8192] randn; y: f32[8192, 8192] randn; rtol = 1e-6; atol = 1e-6
@triton.jit
def add_transpose_kernel(x_ptr, y_ptr, out_ptr, M, N, stride_x, stride_y, stride_o,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs = tl.program_id(0) * (BLOCK_M * BLOCK_N) + tl.arange(0, BLOCK_M * BLOCK_N)
    mask = offs < N * M
    j = offs // M  # row of out and y = column of x
    i = offs % M   # column of out and y = row of x
    xv = tl.load(x_ptr + i * stride_x + j, mask=mask)
    yv = tl.load(y_ptr + j * stride_y + i, mask=mask)
    tl.store(out_ptr + j * stride_o + i, xv + yv, mask=mask)


def add_transpose(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    assert y.shape == (N, M)
    out = torch.empty((N, M), device=x.device, dtype=x.dtype)
    BLOCK_M, BLOCK_N = 1, 1024
    grid = (triton.cdiv(N * M, BLOCK_M * BLOCK_N),)
    add_transpose_kernel[grid](x, y, out, M, N, x.stride(0), y.stride(0), out.stride(0),
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
