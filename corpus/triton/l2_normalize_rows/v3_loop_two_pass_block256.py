"""Row-wise L2 normalisation for rows of any length: one program per row, a first loop
over chunks of 256 accumulates the sum of squares, a second loop reloads each chunk
and stores it scaled; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = l2_normalize_rows(x); x: f32[65536, 1024]; rtol = 1e-4; atol = 1e-6
@triton.jit
def l2norm_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0)
        acc += x * x
    denom = tl.maximum(tl.sqrt(tl.sum(acc, axis=0)), eps)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, x / denom, mask=mask)


def l2_normalize_rows(x: torch.Tensor, eps: float = 1e-12) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    l2norm_kernel[(n_rows,)](x, y, n_rows, n_cols, x.stride(0), eps, BLOCK=256, num_warps=4)
    return y
