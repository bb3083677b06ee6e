"""Scaled outer product out[i, j] = alpha * x[i] * y[j]: 64 x 128 tiles as in the 2-D grid
version, but launched on a 1-D grid with the tile coordinates recovered by div / mod
(column tiles fastest); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = outer_product(x, y, alpha); x: f32[8192] randn; y: f32[8192] randn; alpha = 1.5; rtol = 1e-5; atol = 1e-6
@triton.jit
def outer_kernel(x_ptr, y_ptr, out_ptr, M, N, stride, alpha, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(N, BLOCK_N)
    offs_n = (pid % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = (pid // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    y = tl.load(y_ptr + offs_n, mask=offs_n < N, other=0.0)
    x = tl.load(x_ptr + offs_m, mask=offs_m < M, other=0.0)
    tile = (alpha * x)[:, None] * y[None, :]
    tl.store(out_ptr + offs_m[:, None] * stride + offs_n[None, :], tile,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def outer_product(x: torch.Tensor, y: torch.Tensor, alpha: float) -> torch.Tensor:
    M, N = x.shape[0], y.shape[0]
    out = torch.empty((M, N), device=x.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N = 64, 128
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    outer_kernel[grid](x, y, out, M, N, out.stride(0), alpha, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
