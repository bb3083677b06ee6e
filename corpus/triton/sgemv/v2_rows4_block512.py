"""y = A x for a row-major A[m, n]: each program computes 4 rows, looping over the
columns in [4, 512] tiles; every chunk of x is loaded once and broadcast over the
4 rows; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = sgemv(A, x); A: f32[8192, 4096]; x: f32[4096]; rtol = 1e-3; atol = 1e-2
@triton.jit
def sgemv_kernel(a_ptr, x_ptr, y_ptr, m, n, stride_a, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, n, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = (rows[:, None] < m) & (cols[None, :] < n)
        a = tl.load(a_ptr + rows[:, None] * stride_a + cols[None, :], mask=mask, other=0.0)
        xv = tl.load(x_ptr + cols, mask=cols < n, other=0.0)
        acc += a * xv[None, :]
    tl.store(y_ptr + rows, tl.sum(acc, axis=1), mask=rows < m)


def sgemv(A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    m, n = A.shape
    y = torch.empty((m,), device=A.device, dtype=torch.float32)
    BLOCK_M = 4
    sgemv_kernel[(triton.cdiv(m, BLOCK_M),)](A, x, y, m, n, A.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=512, num_warps=4)
    return y
