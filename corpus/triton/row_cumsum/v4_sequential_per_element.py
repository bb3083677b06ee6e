"""Inclusive prefix sum along each row, the naive way: one program per row walks
the row one element at a time (scalar load, add to the running sum, scalar
store), fully sequential; 1 warp."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = row_cumsum(x); x: f32[16384, 2048]; rtol = 1e-3; atol = 1e-3
@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([], dtype=tl.float32)
    for j in range(0, n_cols):
        acc += tl.load(x_ptr + row * stride + j)
        tl.store(y_ptr + row * stride + j, acc)


def row_cumsum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    row_cumsum_kernel[(n_rows,)](x, y, n_rows, n_cols, x.stride(0), ROWS=1, BLOCK_SIZE=1, num_warps=1)
    return y
