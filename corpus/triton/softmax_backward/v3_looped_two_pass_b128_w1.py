"""Softmax backward dx = y * (dy - sum(dy * y)) per row, two loops over the row in small
128-wide chunks with a single warp per program: 32 short iterations per pass, little in flight."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = softmax_backward(y, dy); y: f32[8192, 4096] rand; dy: f32[8192, 4096] randn; rtol = 1e-3; atol = 1e-3
@triton.jit
def softmax_backward_kernel(dx_ptr, y_ptr, dy_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    y_row = y_ptr + row * stride
    g_row = dy_ptr + row * stride
    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        acc += tl.load(y_row + cols, mask=mask, other=0.0) * tl.load(g_row + cols, mask=mask, other=0.0)
    dot = tl.sum(acc, axis=0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        y = tl.load(y_row + cols, mask=mask, other=0.0)
        g = tl.load(g_row + cols, mask=mask, other=0.0)
        tl.store(dx_ptr + row * stride + cols, y * (g - dot), mask=mask)


def softmax_backward(y: torch.Tensor, dy: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = y.shape
    dx = torch.empty_like(y)
    softmax_backward_kernel[(n_rows,)](dx, y, dy, n_rows, n_cols, y.stride(0), BLOCK=128, num_warps=1)
    return dx
