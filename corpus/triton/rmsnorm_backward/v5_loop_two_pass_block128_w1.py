"""RMSNorm input gradient, one program per row looping over tiny chunks of 128
(both sums, then dx; x, dy and w read twice), a single warp."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rmsnorm_backward(x, w, dy); x: f32[8192, 4096]; w: f32[4096]; dy: f32[8192, 4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def rmsnorm_bwd_kernel(x_ptr, w_ptr, dy_ptr, dx_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    dy_row = dy_ptr + row * stride
    acc_ss = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    acc_dot = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        g = tl.load(w_ptr + cols, mask=mask, other=0.0) * tl.load(dy_row + cols, mask=mask, other=0.0)
        acc_ss += x * x
        acc_dot += g * x
    rstd = tl.rsqrt(tl.sum(acc_ss, axis=0) / n_cols + eps)
    coef = rstd * rstd * tl.sum(acc_dot, axis=0) / n_cols
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        g = tl.load(w_ptr + cols, mask=mask, other=0.0) * tl.load(dy_row + cols, mask=mask, other=0.0)
        tl.store(dx_ptr + row * stride + cols, rstd * (g - x * coef), mask=mask)


def rmsnorm_backward(x: torch.Tensor, w: torch.Tensor, dy: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = x.shape
    dx = torch.empty_like(x)
    rmsnorm_bwd_kernel[(n_rows,)](x, w, dy, dx, x.stride(0), n_cols, eps, BLOCK_SIZE=128, num_warps=1)
    return dx
