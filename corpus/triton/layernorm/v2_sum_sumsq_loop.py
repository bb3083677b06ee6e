"""LayerNorm (eps 1e-5): one loop accumulates sum and sum of squares together
(var = E[x^2] - mean^2), a second loop normalises; chunks of 2048, 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = layernorm(x, w, b); x: f32[8192, 4096]; w: f32[4096]; b: f32[4096]; rtol = 1e-3; atol = 1e-3
@triton.jit
def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    s = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    q = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0)
        s += x
        q += x * x
    mean = tl.sum(s, axis=0) / n_cols
    var = tl.maximum(tl.sum(q, axis=0) / n_cols - mean * mean, 0.0)
    rstd = tl.rsqrt(var + eps)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_row + cols, (x - mean) * rstd * w + b, mask=mask)


def layernorm(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    layernorm_kernel[(n_rows,)](x, y, w, b, x.stride(0), n_cols, eps, BLOCK_SIZE=2048, num_warps=8)
    return y
