"""Fused residual add + RMSNorm y = rmsnorm(x + r) * w, one program per row, the
whole row of h = x + r held in registers (x and r read once); 16 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = add_rmsnorm(x, r, w); x: f32[8192, 4096]; r: f32[8192, 4096]; w: f32[4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def add_rmsnorm_kernel(x_ptr, r_ptr, w_ptr, y_ptr, n_rows, n_cols, stride, eps, ROWS: tl.constexpr,
                       BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    r = tl.load(r_ptr + row * stride + cols, mask=mask, other=0.0)
    h = x + r
    rstd = 1.0 / tl.sqrt(tl.sum(h * h, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, h * rstd * w, mask=mask)


def add_rmsnorm(x: torch.Tensor, r: torch.Tensor, w: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    add_rmsnorm_kernel[(n_rows,)](x, r, w, y, n_rows, n_cols, x.stride(0), eps, ROWS=1, BLOCK_SIZE=BLOCK_SIZE,
                                  num_warps=16)
    return y
