"""y = A^T x, same tiling as the 128-column version (32 x 128 tiles, 64 programs,
4 warps) written with pointers that are advanced by BLOCK_M rows each step instead of
recomputing row * stride, and the x chunk loaded before the A tile."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = gemv_t(A, x); A: f32[16384, 8192]; x: f32[16384]; rtol = 1e-3; atol = 1e-2
@triton.jit
def gemv_t_kernel(a_ptr, x_ptr, y_ptr, M, N, stride_a, rows_per_program, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = tl.arange(0, BLOCK_M)
    n_ok = offs_n < N
    a_tile = a_ptr + offs_m[:, None] * stride_a + offs_n[None, :]
    x_tile = x_ptr + offs_m
    partial = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for m0 in range(0, rows_per_program, BLOCK_M):
        m_ok = offs_m < M - m0
        xs = tl.load(x_tile, mask=m_ok, other=0.0)
        tile = tl.load(a_tile, mask=m_ok[:, None] & n_ok[None, :], other=0.0)
        partial += tile * xs[:, None]
        a_tile += BLOCK_M * stride_a
        x_tile += BLOCK_M
    tl.store(y_ptr + offs_n, tl.sum(partial, axis=0), mask=n_ok)


def gemv_t(A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    m, n = A.shape
    y = torch.empty((n,), device=A.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N = 32, 128
    grid = (triton.cdiv(n, BLOCK_N),)
    gemv_t_kernel[grid](A, x, y, m, n, A.stride(0), m, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return y
