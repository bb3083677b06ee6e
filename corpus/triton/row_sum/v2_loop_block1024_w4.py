"""Sum of every row: one program per row loops over the row in chunks of 1024
(vector accumulator, one reduction at the end); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = row_sum(x); x: f32[16384, 4096]; rtol = 1e-3; atol = 1e-3
@triton.jit
def row_sum_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


def row_sum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    row_sum_kernel[(n_rows,)](x, out, x.stride(0), n_cols, BLOCK_SIZE=1024, num_warps=4)
    return out
