"""LayerNorm (eps 1e-5), one program per row holding the whole row in registers:
x is read once; mean and variance (two-pass, from registers), 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = layernorm(x, w, b); x: f32[8192, 4096]; w: f32[4096]; b: f32[4096]; rtol = 1e-3; atol = 1e-3
@triton.jit
def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    b = tl.load(b_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride + cols, d * rstd * w + b, mask=mask)


def layernorm(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    layernorm_kernel[(n_rows,)](x, y, w, b, x.stride(0), n_cols, eps, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return y
