"""One 5-point Jacobi step (interior: mean of the 4 neighbours, boundary copied): one
program per flat block of 1024 grid points, (i, j) recovered with // and %; 5 masked
loads per point; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = jacobi2d(x); x: f32[8192, 8192] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def jacobi2d_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs = tl.program_id(0) * (BLOCK_M * BLOCK_N) + tl.arange(0, BLOCK_M * BLOCK_N)
    mask = offs < M * N
    i = offs // N
    j = offs % N
    interior = mask & (i > 0) & (i < M - 1) & (j > 0) & (j < N - 1)
    c = tl.load(x_ptr + offs, mask=mask, other=0.0)
    up = tl.load(x_ptr + offs - N, mask=interior, other=0.0)
    down = tl.load(x_ptr + offs + N, mask=interior, other=0.0)
    left = tl.load(x_ptr + offs - 1, mask=interior, other=0.0)
    right = tl.load(x_ptr + offs + 1, mask=interior, other=0.0)
    val = 0.25 * (up + down + left + right)
    tl.store(out_ptr + offs, tl.where(interior, val, c), mask=mask)


def jacobi2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    M, N = x.shape
    out = torch.empty_like(x)
    BLOCK_M, BLOCK_N = 1, 1024
    grid = (triton.cdiv(M * N, BLOCK_M * BLOCK_N),)
    jacobi2d_kernel[grid](x, out, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
