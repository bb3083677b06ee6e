"""Fused residual add + RMSNorm, one program per row, whole row of x + r in
registers, 8 warps: v0 with renamed variables, a row base pointer and the
weight load moved before the reduction."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = add_rmsnorm(x, r, w); x: f32[8192, 4096]; r: f32[8192, 4096]; w: f32[4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def add_rmsnorm_kernel(x_ptr, r_ptr, w_ptr, y_ptr, n_rows, n_cols, stride, eps, ROWS: tl.constexpr,
                       BLOCK_SIZE: tl.constexpr):
    base = tl.program_id(0) * stride
    offs = tl.arange(0, BLOCK_SIZE)
    in_row = offs < n_cols
    gamma = tl.load(w_ptr + offs, mask=in_row, other=0.0)
    resid = tl.load(r_ptr + base + offs, mask=in_row, other=0.0)
    hidden = tl.load(x_ptr + base + offs, mask=in_row, other=0.0) + resid
    mean_sq = tl.sum(hidden * hidden, axis=0) / n_cols
    inv_rms = 1.0 / tl.sqrt(mean_sq + eps)
    tl.store(y_ptr + base + offs, hidden * inv_rms * gamma, mask=in_row)


def add_rmsnorm(x: torch.Tensor, r: torch.Tensor, w: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    add_rmsnorm_kernel[(n_rows,)](x, r, w, y, n_rows, n_cols, x.stride(0), eps, ROWS=1, BLOCK_SIZE=BLOCK_SIZE,
                                  num_warps=8)
    return y
