"""One 5-point Jacobi step: each program owns a 1024-column strip of 32 rows and walks
down it keeping the rows above and below in registers (only the next row and the
left/right neighbours are loaded per step); grid (column strips, row groups); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = jacobi2d(x); x: f32[8192, 8192] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def jacobi2d_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    col_ok = cols < N
    col_in = (cols > 0) & (cols < N - 1)
    r0 = tl.program_id(1) * BLOCK_M
    prev = tl.load(x_ptr + (r0 - 1) * N + cols, mask=col_ok & (r0 > 0), other=0.0)
    cur = tl.load(x_ptr + r0 * N + cols, mask=col_ok & (r0 < M), other=0.0)
    for dr in range(0, BLOCK_M):
        r = r0 + dr
        nxt = tl.load(x_ptr + (r + 1) * N + cols, mask=col_ok & (r + 1 < M), other=0.0)
        inner = col_in & (r > 0) & (r < M - 1)
        left = tl.load(x_ptr + r * N + cols - 1, mask=inner, other=0.0)
        right = tl.load(x_ptr + r * N + cols + 1, mask=inner, other=0.0)
        val = 0.25 * (prev + nxt + left + right)
        tl.store(out_ptr + r * N + cols, tl.where(inner, val, cur), mask=col_ok & (r < M))
        prev = cur
        cur = nxt


def jacobi2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    M, N = x.shape
    out = torch.empty_like(x)
    BLOCK_M, BLOCK_N = 32, 1024
    grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(M, BLOCK_M))
    jacobi2d_kernel[grid](x, out, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
