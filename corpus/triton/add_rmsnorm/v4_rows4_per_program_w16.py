"""Fused residual add + RMSNorm, each program normalises 4 rows held in registers
as a 4 x 4096 tile of h = x + r (a quarter as many programs); 16 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = add_rmsnorm(x, r, w); x: f32[8192, 4096]; r: f32[8192, 4096]; w: f32[4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def add_rmsnorm_kernel(x_ptr, r_ptr, w_ptr, y_ptr, n_rows, n_cols, stride, eps, ROWS: tl.constexpr,
                       BLOCK_SIZE: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    h = tl.load(x_ptr + offs, mask=mask, other=0.0) + tl.load(r_ptr + offs, mask=mask, other=0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(h * h, axis=1) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0)
    tl.store(y_ptr + offs, h * rstd[:, None] * w[None, :], mask=mask)


def add_rmsnorm(x: torch.Tensor, r: torch.Tensor, w: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    ROWS = 4
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    add_rmsnorm_kernel[(triton.cdiv(n_rows, ROWS),)](x, r, w, y, n_rows, n_cols, x.stride(0), eps, ROWS=ROWS,
                                                      BLOCK_SIZE=BLOCK_SIZE, num_warps=16)
    return y
