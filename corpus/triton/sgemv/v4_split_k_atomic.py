"""y = A x for a row-major A[m, n], split-k: a 2-D grid gives each program 4 rows and
a quarter of the columns ([4, 512] tiles), and the partial dot products are added
to a zero-initialised y with tl.atomic_add; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = sgemv(A, x); A: f32[8192, 4096]; x: f32[4096]; rtol = 1e-3; atol = 1e-2
@triton.jit
def sgemv_kernel(a_ptr, x_ptr, y_ptr, m, n, stride_a, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 K_PER_PROGRAM: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    k0 = tl.program_id(1) * K_PER_PROGRAM
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, K_PER_PROGRAM, BLOCK_N):
        cols = k0 + start + tl.arange(0, BLOCK_N)
        mask = (rows[:, None] < m) & (cols[None, :] < n)
        a = tl.load(a_ptr + rows[:, None] * stride_a + cols[None, :], mask=mask, other=0.0)
        xv = tl.load(x_ptr + cols, mask=cols < n, other=0.0)
        acc += a * xv[None, :]
    tl.atomic_add(y_ptr + rows, tl.sum(acc, axis=1), mask=rows < m)


def sgemv(A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    m, n = A.shape
    y = torch.zeros((m,), device=A.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, SPLIT_K = 4, 512, 4
    k_per_program = triton.cdiv(triton.cdiv(n, SPLIT_K), BLOCK_N) * BLOCK_N
    grid = (triton.cdiv(m, BLOCK_M), triton.cdiv(n, k_per_program))
    sgemv_kernel[grid](A, x, y, m, n, A.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, K_PER_PROGRAM=k_per_program,
                       num_warps=4)
    return y
