"""Unbiased variance of every row with a chunked Welford update: one program per row
reads each chunk of 1024 once, computes its mean and M2 and merges them into the
running (count, mean, M2) with Chan's formula; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = var_rows(x); x: f32[16384, 8192] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def var_rows_kernel(x_ptr, out_ptr, stride, n_rows, n_cols, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    count = tl.zeros([], dtype=tl.float32)
    mean = tl.zeros([], dtype=tl.float32)
    m2 = tl.zeros([], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        n_b = tl.minimum(n_cols - start, BLOCK_SIZE).to(tl.float32)
        mean_b = tl.sum(x, axis=0) / n_b
        d = tl.where(mask, x - mean_b, 0.0)
        m2_b = tl.sum(d * d, axis=0)
        n_new = count + n_b
        delta = mean_b - mean
        mean = mean + delta * (n_b / n_new)
        m2 = m2 + m2_b + delta * delta * (count * n_b / n_new)
        count = n_new
    tl.store(out_ptr + row, m2 / (n_cols - 1))


def var_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    var_rows_kernel[(n_rows,)](x, out, x.stride(0), n_rows, n_cols, ROWS=1, BLOCK_SIZE=1024, num_warps=4)
    return out
