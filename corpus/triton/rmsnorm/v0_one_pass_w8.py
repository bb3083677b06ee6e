"""RMSNorm y = x / sqrt(mean(x^2) + 1e-6) * w, one program per row holding the
whole row in registers (x read once); 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rmsnorm(x, w); x: f32[8192, 4096]; w: f32[4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask)
    tl.store(y_ptr + row * stride + cols, x * rstd * w, mask=mask)


def rmsnorm(x: torch.Tensor, w: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    rmsnorm_kernel[(n_rows,)](x, w, y, x.stride(0), n_cols, eps, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return y
