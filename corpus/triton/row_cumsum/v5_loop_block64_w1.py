"""Inclusive prefix sum along each row, one program per row, looping over the
row in small chunks of 64 with a single warp: each chunk is scanned with
tl.cumsum and offset by the carry of the previous chunks (32 dependent steps)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = row_cumsum(x); x: f32[16384, 2048]; rtol = 1e-3; atol = 1e-3
@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    carry = tl.zeros([1], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
        tl.store(y_ptr + row * stride + cols, tl.cumsum(x, axis=0) + carry, mask=mask)
        carry += tl.sum(x, axis=0)


def row_cumsum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    row_cumsum_kernel[(n_rows,)](x, y, n_rows, n_cols, x.stride(0), ROWS=1, BLOCK_SIZE=64, num_warps=1)
    return y
