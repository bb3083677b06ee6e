"""Scaled outer product out[i, j] = alpha * x[i] * y[j] (write-only [M, N] output): 2-D
grid of 32 x 32 tiles, each program loads 32 x and 32 y values and stores the
broadcast product; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = outer_product(x, y, alpha); x: f32[8192] randn; y: f32[8192] randn; alpha = 1.5; rtol = 1e-5; atol = 1e-6
@triton.jit
def outer_kernel(x_ptr, y_ptr, out_ptr, M, N, stride, alpha, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + rm, mask=rm < M, other=0.0)
    y = tl.load(y_ptr + rn, mask=rn < N, other=0.0)
    out = (alpha * x)[:, None] * y[None, :]
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    tl.store(out_ptr + rm[:, None] * stride + rn[None, :], out, mask=mask)


def outer_product(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    M, N = x.shape[0], y.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N = 32, 32
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    outer_kernel[grid](x, y, out, M, N, out.stride(0), alpha, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
