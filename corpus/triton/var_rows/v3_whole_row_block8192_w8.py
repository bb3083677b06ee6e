"""Unbiased variance of every row: one program per row loads the whole row into
registers (BLOCK_SIZE = next power of two >= cols, 8192), then mean and squared
deviations from registers (one read of x); 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = var_rows(x); x: f32[16384, 8192] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def var_rows_kernel(x_ptr, out_ptr, stride, n_rows, n_cols, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    tl.store(out_ptr + row, tl.sum(d * d, axis=0) / (n_cols - 1))


def var_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    var_rows_kernel[(n_rows,)](x, out, x.stride(0), n_rows, n_cols, ROWS=1, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out
