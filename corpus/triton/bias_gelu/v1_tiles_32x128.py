"""out = gelu_tanh(x + bias[col]) on 2-D tiles of 32 rows x 128 columns: the bias
slice is loaded once per tile and broadcast over the rows; tanh via exp."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = bias_gelu(x, bias); x: f32[8192, 4096]; bias: f32[4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def bias_gelu_kernel(x_ptr, b_ptr, out_ptr, n_rows, n_cols, stride, BLOCK_M: tl.constexpr,
                     BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None] * stride + cols[None, :]
    b = tl.load(b_ptr + cols, mask=cols < n_cols, other=0.0)
    v = tl.load(x_ptr + offs, mask=mask) + b[None, :]
    u = 0.7978845608028654 * (v + 0.044715 * v * v * v)
    u = tl.minimum(tl.maximum(u, -15.0), 15.0)
    t = 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)
    tl.store(out_ptr + offs, 0.5 * v * (1.0 + t), mask=mask)


def bias_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK_M, BLOCK_N = 32, 128
    grid = (triton.cdiv(n_rows, BLOCK_M), triton.cdiv(n_cols, BLOCK_N))
    bias_gelu_kernel[grid](x, bias, out, n_rows, n_cols, x.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                           num_warps=4)
    return out
