"""Inclusive prefix sum along each row, each program scans 4 whole rows held as
a 4 x 2048 tile with tl.cumsum along the columns (a quarter as many programs);
8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = row_cumsum(x); x: f32[16384, 2048]; rtol = 1e-3; atol = 1e-3
@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.cumsum(x, axis=1), mask=mask)


def row_cumsum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    ROWS = 4
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    row_cumsum_kernel[(triton.cdiv(n_rows, ROWS),)](x, y, n_rows, n_cols, x.stride(0), ROWS=ROWS,
                                                     BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return y
