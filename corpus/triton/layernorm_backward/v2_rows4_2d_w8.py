"""LayerNorm input gradient, each program handles 4 rows held in registers as a
4 x 2048 tile (a quarter as many programs, w loaded once per 4 rows); 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = layernorm_backward(dy, x, mean, rstd, w); dy: f32[16384, 2048] randn; x: f32[16384, 2048] randn; mean: f32[16384] randn; rstd: f32[16384] rand; w: f32[2048] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def layernorm_bwd_kernel(dx_ptr, dy_ptr, x_ptr, mean_ptr, rstd_ptr, w_ptr, n_rows, n_cols, stride,
                         ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    row_mask = rows < n_rows
    mask = row_mask[:, None] & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=0.0)
    mean = tl.load(mean_ptr + rows, mask=row_mask, other=0.0)
    rstd = tl.load(rstd_ptr + rows, mask=row_mask, other=0.0)
    xhat = (x - mean[:, None]) * rstd[:, None]
    g = dy * w[None, :]
    c1 = tl.sum(g * xhat, axis=1) / n_cols
    c2 = tl.sum(g, axis=1) / n_cols
    dx = rstd[:, None] * (g - c2[:, None] - xhat * c1[:, None])
    tl.store(dx_ptr + offs, dx, mask=mask)


def layernorm_backward(dy: torch.Tensor, x: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor,
                       w: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    dx = torch.empty_like(x)
    ROWS = 4
    BLOCK = triton.next_power_of_2(n_cols)
    layernorm_bwd_kernel[(triton.cdiv(n_rows, ROWS),)](dx, dy, x, mean, rstd, w, n_rows, n_cols, x.stride(0),
                                                       ROWS=ROWS, BLOCK=BLOCK, num_warps=8)
    return dx
