"""One 5-point Jacobi step: 2-D tiles of 8 rows x 128 columns (row-major, contiguous
along the row), grid (column tiles, row tiles), no div/mod; 5 masked [8, 128] loads;
4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = jacobi2d(x); x: f32[8192, 8192] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def jacobi2d_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    interior = mask & ((rows > 0) & (rows < M - 1))[:, None] & ((cols > 0) & (cols < N - 1))[None, :]
    p = x_ptr + rows[:, None] * N + cols[None, :]
    c = tl.load(p, mask=mask, other=0.0)
    up = tl.load(p - N, mask=interior, other=0.0)
    down = tl.load(p + N, mask=interior, other=0.0)
    left = tl.load(p - 1, mask=interior, other=0.0)
    right = tl.load(p + 1, mask=interior, other=0.0)
    val = 0.25 * (up + down + left + right)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], tl.where(interior, val, c), mask=mask)


def jacobi2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    M, N = x.shape
    out = torch.empty_like(x)
    BLOCK_M, BLOCK_N = 8, 128
    grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(M, BLOCK_M))
    jacobi2d_kernel[grid](x, out, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
