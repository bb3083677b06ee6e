"""Sum over the rows (dim 0) of a 2-D tensor: each program owns 512 columns and
walks down all rows in 8 x 512 tiles; 8 warps, only 16 programs."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = col_sum(x); x: f32[4096, 8192]; rtol = 1e-3; atol = 1e-2
@triton.jit
def col_sum_kernel(x_ptr, out_ptr, stride, n_rows, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, n_rows, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        acc += tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0), mask=cols < n_cols)


def col_sum(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_cols,), device=x.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N = 8, 512
    col_sum_kernel[(triton.cdiv(n_cols, BLOCK_N),)](x, out, x.stride(0), n_rows, n_cols,
                                                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=8)
    return out
