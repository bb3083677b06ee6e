"""out = gelu_tanh(x + bias[col]) over a row-major matrix: flat 1-D programs of
1024 elements, the bias column from offs % n_cols; tanh via exp."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = bias_gelu(x, bias); x: f32[8192, 4096]; bias: f32[4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def bias_gelu_kernel(x_ptr, b_ptr, out_ptr, n_elements, n_cols, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    v = tl.load(x_ptr + offs, mask=mask) + tl.load(b_ptr + offs % n_cols, mask=mask)
    u = 0.7978845608028654 * (v + 0.044715 * v * v * v)
    u = tl.minimum(tl.maximum(u, -15.0), 15.0)
    t = 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)
    tl.store(out_ptr + offs, 0.5 * v * (1.0 + t), mask=mask)


def bias_gelu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    n = x.numel()
    BLOCK_SIZE = 1024
    bias_gelu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, bias, out, n, n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return out
