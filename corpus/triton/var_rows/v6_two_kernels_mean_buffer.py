"""Unbiased variance in two kernels: a first kernel writes every row's mean into a
torch.empty buffer (one program per row, chunks of 1024), a second kernel reads the
mean and sums squared deviations (x is read twice from memory); 4 warps each."""
import torch
import triton
import triton.language as tl


@triton.jit
def row_mean_kernel(x_ptr, mean_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(x_row + cols, mask=cols < n_cols, other=0.0)
    tl.store(mean_ptr + row, tl.sum(acc, axis=0) / n_cols)


# kforecast: wrapper = var_rows(x); x: f32[16384, 8192] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def var_rows_kernel(x_ptr, out_ptr, stride, n_rows, n_cols, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    mean = tl.load(out_ptr + row)
    acc2 = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        d = tl.where(mask, x - mean, 0.0)
        acc2 += d * d
    tl.store(out_ptr + row, tl.sum(acc2, axis=0) / (n_cols - 1))


def var_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    # the row means go into out first; the second kernel overwrites each with the variance
    row_mean_kernel[(n_rows,)](x, out, x.stride(0), n_cols, BLOCK_SIZE=1024, num_warps=4)
    var_rows_kernel[(n_rows,)](x, out, x.stride(0), n_rows, n_cols, ROWS=1, BLOCK_SIZE=1024, num_warps=4)
    return out
