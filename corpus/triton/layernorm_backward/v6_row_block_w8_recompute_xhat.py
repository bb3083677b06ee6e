"""LayerNorm input gradient, one program per row with the whole row, 8 warps: v0 with
renamed values, reordered loads and xhat folded into the final expression instead of
kept (dx = rstd*g - rstd*mean(g) - (x - mean) * rstd^2 * mean(g * xhat))."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = layernorm_backward(dy, x, mean, rstd, w); dy: f32[16384, 2048] randn; x: f32[16384, 2048] randn; mean: f32[16384] randn; rstd: f32[16384] rand; w: f32[2048] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def layernorm_bwd_kernel(dx_ptr, dy_ptr, x_ptr, mean_ptr, rstd_ptr, w_ptr, n_cols, stride, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    valid = offs < n_cols
    base = tl.program_id(0) * stride
    mu = tl.load(mean_ptr + tl.program_id(0))
    inv_std = tl.load(rstd_ptr + tl.program_id(0))
    weight = tl.load(w_ptr + offs, mask=valid, other=0.0)
    grad = tl.load(dy_ptr + base + offs, mask=valid, other=0.0) * weight
    centered = tl.load(x_ptr + base + offs, mask=valid, other=0.0) - mu
    mean_gx = tl.sum(grad * centered, axis=0) * inv_std / n_cols
    mean_g = tl.sum(grad, axis=0) / n_cols
    out = inv_std * grad - inv_std * mean_g - centered * (inv_std * inv_std * mean_gx)
    tl.store(dx_ptr + base + offs, out, mask=valid)


def layernorm_backward(dy: torch.Tensor, x: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor,
                       w: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    dx = torch.empty_like(x)
    BLOCK = triton.next_power_of_2(n_cols)
    layernorm_bwd_kernel[(n_rows,)](dx, dy, x, mean, rstd, w, n_cols, x.stride(0), BLOCK=BLOCK, num_warps=8)
    return dx
