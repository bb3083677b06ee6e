"""Sum of every row: each program reduces a 4-row x 1024-column tile per step
(2-D block), looping over the columns; 4 rows per program, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = row_sum(x); x: f32[16384, 4096]; rtol = 1e-3; atol = 1e-3
@triton.jit
def row_sum_kernel(x_ptr, out_ptr, stride, n_rows, n_cols, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    acc = tl.zeros([ROWS, BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        acc += tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + rows, tl.sum(acc, axis=1), mask=rows < n_rows)


def row_sum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    ROWS = 4
    row_sum_kernel[(triton.cdiv(n_rows, ROWS),)](x, out, x.stride(0), n_rows, n_cols, ROWS=ROWS, BLOCK_SIZE=1024,
                                                  num_warps=4)
    return out
