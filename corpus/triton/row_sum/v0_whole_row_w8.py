"""Sum of every row of a 2-D tensor: one program per row loads the whole row
(next power of two >= n_cols) and reduces it; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = row_sum(x); x: f32[16384, 4096]; rtol = 1e-3; atol = 1e-3
@triton.jit
def row_sum_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


def row_sum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    row_sum_kernel[(n_rows,)](x, out, x.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out
