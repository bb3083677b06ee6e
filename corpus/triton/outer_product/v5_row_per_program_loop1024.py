"""Scaled outer product out[i, j] = alpha * x[i] * y[j], one program per output row: loads
alpha * x[i] once and loops over the row in chunks of 1024 columns of y; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = outer_product(x, y, alpha); x: f32[8192] randn; y: f32[8192] randn; alpha = 1.5; rtol = 1e-5; atol = 1e-6
@triton.jit
def outer_kernel(x_ptr, y_ptr, out_ptr, M, N, stride, alpha, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    ax = alpha * tl.load(x_ptr + row)
    for start in range(0, N, BLOCK_N):
        rn = start + tl.arange(0, BLOCK_N)
        mask = rn < N
        y = tl.load(y_ptr + rn, mask=mask, other=0.0)
        tl.store(out_ptr + row * stride + rn, ax * y, mask=mask)


def outer_product(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    M, N = x.shape[0], y.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=torch.float32)
    outer_kernel[(M,)](x, y, out, M, N, out.stride(0), alpha, BLOCK_N=1024, num_warps=4)
    return out
