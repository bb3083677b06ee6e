"""Inclusive prefix sum along each row, one program per row, whole row in
registers, 8 warps: v0 with row base pointers and renamed variables, the scan
taken along the last axis (axis=-1)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = row_cumsum(x); x: f32[16384, 2048]; rtol = 1e-3; atol = 1e-3
@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    src = x_ptr + tl.program_id(0) * stride
    dst = y_ptr + tl.program_id(0) * stride
    offs = tl.arange(0, BLOCK_SIZE)
    valid = offs < n_cols
    vals = tl.load(src + offs, mask=valid, other=0.0)
    prefix = tl.cumsum(vals, axis=-1)
    tl.store(dst + offs, prefix, mask=valid)


def row_cumsum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    row_cumsum_kernel[(n_rows,)](x, y, n_rows, n_cols, x.stride(0), ROWS=1, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return y
