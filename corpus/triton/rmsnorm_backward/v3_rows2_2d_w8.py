"""RMSNorm input gradient, each program handles 2 rows held in registers as a
2 x 4096 tile (half as many programs); 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rmsnorm_backward(x, w, dy); x: f32[8192, 4096]; w: f32[4096]; dy: f32[8192, 4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def rmsnorm_bwd_kernel(x_ptr, w_ptr, dy_ptr, dx_ptr, stride, n_rows, n_cols, eps, ROWS: tl.constexpr,
                       BLOCK_SIZE: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0)
    g = tl.load(dy_ptr + offs, mask=mask, other=0.0) * w[None, :]
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=1) / n_cols + eps)
    coef = rstd * rstd * tl.sum(g * x, axis=1) / n_cols
    tl.store(dx_ptr + offs, rstd[:, None] * (g - x * coef[:, None]), mask=mask)


def rmsnorm_backward(x: torch.Tensor, w: torch.Tensor, dy: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = x.shape
    dx = torch.empty_like(x)
    ROWS = 2
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    rmsnorm_bwd_kernel[(triton.cdiv(n_rows, ROWS),)](x, w, dy, dx, x.stride(0), n_rows, n_cols, eps, ROWS=ROWS,
                                                      BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return dx
