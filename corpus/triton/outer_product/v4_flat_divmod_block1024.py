"""Scaled outer product out[i, j] = alpha * x[i] * y[j] over the flattened output: each
program stores 1024 consecutive elements, recovering i = k // N and j = k % N per
element and gathering x[i] and y[j]; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = outer_product(x, y, alpha); x: f32[8192] randn; y: f32[8192] randn; alpha = 1.5; rtol = 1e-5; atol = 1e-6
@triton.jit
def outer_kernel(x_ptr, y_ptr, out_ptr, M, N, stride, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < M * N
    i = offs // N
    j = offs % N
    x = tl.load(x_ptr + i, mask=mask, other=0.0)
    y = tl.load(y_ptr + j, mask=mask, other=0.0)
    tl.store(out_ptr + i * stride + j, alpha * x * y, mask=mask)


def outer_product(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    M, N = x.shape[0], y.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=torch.float32)
    BLOCK = 1024
    outer_kernel[(triton.cdiv(M * N, BLOCK),)](x, y, out, M, N, out.stride(0), alpha, BLOCK=BLOCK, num_warps=4)
    return out
