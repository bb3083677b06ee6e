"""Sum over the rows: a 2-D grid splits the rows into chunks of 256, each program
reduces a 256-row x 256-column slab and adds its partial column sums to the
zero-initialised output with tl.atomic_add."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = col_sum(x); x: f32[4096, 8192]; rtol = 1e-3; atol = 1e-2
@triton.jit
def col_sum_kernel(x_ptr, out_ptr, stride, n_rows, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   ROWS_PER_PROGRAM: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    row0 = tl.program_id(1) * ROWS_PER_PROGRAM
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, ROWS_PER_PROGRAM, BLOCK_M):
        rows = row0 + start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        acc += tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
    tl.atomic_add(out_ptr + cols, tl.sum(acc, axis=0), mask=cols < n_cols)


def col_sum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.zeros((n_cols,), device=x.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, ROWS = 16, 256, 256
    grid = (triton.cdiv(n_cols, BLOCK_N), triton.cdiv(n_rows, ROWS))
    col_sum_kernel[grid](x, out, x.stride(0), n_rows, n_cols, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                         ROWS_PER_PROGRAM=ROWS, num_warps=4)
    return out
