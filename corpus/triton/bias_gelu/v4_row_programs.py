"""out = gelu_tanh(x + bias[col]): one program per row, looping over the row in
chunks of 1024 (bias chunks re-read by every row); tanh via exp."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = bias_gelu(x, bias); x: f32[8192, 4096]; bias: f32[4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def bias_gelu_kernel(x_ptr, b_ptr, out_ptr, n_cols, stride, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        v = tl.load(x_ptr + row * stride + cols, mask=mask) + tl.load(b_ptr + cols, mask=mask)
        u = 0.7978845608028654 * (v + 0.044715 * v * v * v)
        u = tl.minimum(tl.maximum(u, -15.0), 15.0)
        t = 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)
        tl.store(out_ptr + row * stride + cols, 0.5 * v * (1.0 + t), mask=mask)


def bias_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    bias_gelu_kernel[(n_rows,)](x, bias, out, n_cols, x.stride(0), BLOCK_SIZE=1024, num_warps=4)
    return out
