"""Inclusive prefix sum along each row, one program per row: the whole row
(BLOCK_SIZE >= n_cols) is loaded once, scanned with tl.cumsum and stored; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = row_cumsum(x); x: f32[16384, 2048]; rtol = 1e-3; atol = 1e-3
@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, tl.cumsum(x, axis=0), mask=mask)


def row_cumsum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    row_cumsum_kernel[(n_rows,)](x, y, n_rows, n_cols, x.stride(0), ROWS=1, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return y
