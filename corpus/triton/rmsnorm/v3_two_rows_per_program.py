"""RMSNorm, each program normalises 2 rows held in registers as a 2 x 4096 tile
(half as many programs); 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rmsnorm(x, w); x: f32[8192, 4096]; w: f32[4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride, n_rows, n_cols, eps, ROWS: tl.constexpr,
                   BLOCK_SIZE: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=1) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=cols < n_cols)
    tl.store(y_ptr + offs, x * rstd[:, None] * w[None, :], mask=mask)


def rmsnorm(x: torch.Tensor, w: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    ROWS = 2
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    rmsnorm_kernel[(triton.cdiv(n_rows, ROWS),)](x, w, y, x.stride(0), n_rows, n_cols, eps, ROWS=ROWS,
                                                  BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return y
