"""Unbiased variance, 4 rows per program: two loops over 4 x 1024 tiles (row sums for
the means, then squared deviations), reductions along axis 1; a quarter as many
programs; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = var_rows(x); x: f32[16384, 8192] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def var_rows_kernel(x_ptr, out_ptr, stride, n_rows, n_cols, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_mask = rows < n_rows
    acc = tl.zeros([ROWS, BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = row_mask[:, None] & (cols[None, :] < n_cols)
        acc += tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
    mean = tl.sum(acc, axis=1) / n_cols
    acc2 = tl.zeros([ROWS, BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = row_mask[:, None] & (cols[None, :] < n_cols)
        x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
        d = tl.where(mask, x - mean[:, None], 0.0)
        acc2 += d * d
    tl.store(out_ptr + rows, tl.sum(acc2, axis=1) / (n_cols - 1), mask=row_mask)


def var_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    ROWS = 4
    var_rows_kernel[(triton.cdiv(n_rows, ROWS),)](x, out, x.stride(0), n_rows, n_cols, ROWS=ROWS, BLOCK_SIZE=1024,
                                                   num_warps=8)
    return out
