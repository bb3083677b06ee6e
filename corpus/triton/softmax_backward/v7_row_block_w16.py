"""Softmax backward dx = y * (dy - sum(dy * y)) per row, one program per row holding the
whole row in registers; 16 warps (8 values of each 4096-wide row per thread, a wider reduction)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = softmax_backward(y, dy); y: f32[8192, 4096] rand; dy: f32[8192, 4096] randn; rtol = 1e-3; atol = 1e-3
@triton.jit
def softmax_backward_kernel(dx_ptr, y_ptr, dy_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    y = tl.load(y_ptr + row * stride + cols, mask=mask, other=0.0)
    g = tl.load(dy_ptr + row * stride + cols, mask=mask, other=0.0)
    dot = tl.sum(y * g, axis=0)
    tl.store(dx_ptr + row * stride + cols, y * (g - dot), mask=mask)


def softmax_backward(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = y.shape
    dx = torch.empty_like(y)
    softmax_backward_kernel[(n_rows,)](dx, y, dy, n_rows, n_cols, y.stride(0), BLOCK=triton.next_power_of_2(n_cols),
                                       num_warps=16)
    return dx
