"""Unbiased variance of every row in a single pass: one program per row accumulates
the sum and the sum of squares over chunks of 1024, var = (ss - s * s / n) / (n - 1);
4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = var_rows(x); x: f32[16384, 8192] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def var_rows_kernel(x_ptr, out_ptr, stride, n_rows, n_cols, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    s = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    ss = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0)
        s += x
        ss += x * x
    total = tl.sum(s, axis=0)
    total_sq = tl.sum(ss, axis=0)
    tl.store(out_ptr + row, (total_sq - total * total / n_cols) / (n_cols - 1))


def var_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    var_rows_kernel[(n_rows,)](x, out, x.stride(0), n_rows, n_cols, ROWS=1, BLOCK_SIZE=1024, num_warps=4)
    return out
