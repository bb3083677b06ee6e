"""LayerNorm input gradient, one program per row holding the whole row in registers
(BLOCK = next_power_of_2(D)); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = layernorm_backward(dy, x, mean, rstd, w); dy: f32[16384, 2048] randn; x: f32[16384, 2048] randn; mean: f32[16384] randn; rstd: f32[16384] rand; w: f32[2048] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def layernorm_bwd_kernel(dx_ptr, dy_ptr, x_ptr, mean_ptr, rstd_ptr, w_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    dy = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row)
    xhat = (x - mean) * rstd
    g = dy * w
    c1 = tl.sum(g * xhat, axis=0) / n_cols
    c2 = tl.sum(g, axis=0) / n_cols
    dx = rstd * (g - c2 - xhat * c1)
    tl.store(dx_ptr + row * stride + cols, dx, mask=mask)


def layernorm_backward(dy: torch.Tensor, x: torch.Tensor, mean: torch.Tensor, rstd: torch.Tensor,
                       w: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    dx = torch.empty_like(x)
    BLOCK = triton.next_power_of_2(n_cols)
    layernorm_bwd_kernel[(n_rows,)](dx, dy, x, mean, rstd, w, n_cols, x.stride(0), BLOCK=BLOCK, num_warps=4)
    return dx
