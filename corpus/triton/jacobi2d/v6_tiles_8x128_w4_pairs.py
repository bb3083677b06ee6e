"""One 5-point Jacobi step: 8 x 128 row-major tiles as before, written differently: one
offset tile, the neighbours summed as (left + right) + (up + down), the centre loaded
only where it is kept (the boundary); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = jacobi2d(x); x: f32[8192, 8192] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def jacobi2d_kernel(x_ptr, out_ptr, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    r = tl.program_id(1) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    q = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)[None, :]
    off = r * N + q
    inside = (r < M) & (q < N)
    inner = (r >= 1) & (r <= M - 2) & (q >= 1) & (q <= N - 2)
    horiz = tl.load(x_ptr + off - 1, mask=inner, other=0.0) + tl.load(x_ptr + off + 1, mask=inner, other=0.0)
    vert = tl.load(x_ptr + off - N, mask=inner, other=0.0) + tl.load(x_ptr + off + N, mask=inner, other=0.0)
    centre = tl.load(x_ptr + off, mask=inside & ~inner, other=0.0)
    tl.store(out_ptr + off, tl.where(inner, (horiz + vert) * 0.25, centre), mask=inside)


def jacobi2d(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    M, N = x.shape
    out = torch.empty_like(x)
    BLOCK_M, BLOCK_N = 8, 128
    grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(M, BLOCK_M))
    jacobi2d_kernel[grid](x, out, M, N, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out
