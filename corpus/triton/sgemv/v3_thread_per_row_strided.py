"""y = A x for a row-major A[m, n], ported from a thread-per-row CUDA kernel: each
program owns 64 rows (one per lane) and walks the columns one at a time, so every
load gathers one float from each of 64 different rows (strided, uncoalesced);
2 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = sgemv(A, x); A: f32[8192, 4096]; x: f32[4096]; rtol = 1e-3; atol = 1e-2
@triton.jit
def sgemv_kernel(a_ptr, x_ptr, y_ptr, m, n, stride_a, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    mask = rows < m
    acc = tl.zeros([BLOCK_M], dtype=tl.float32)
    for k in range(0, n):
        a = tl.load(a_ptr + rows * stride_a + k, mask=mask, other=0.0)
        acc += a * tl.load(x_ptr + k)
    tl.store(y_ptr + rows, acc, mask=mask)


def sgemv(A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    m, n = A.shape
    y = torch.empty((m,), device=A.device, dtype=torch.float32)
    BLOCK_M = 64
    sgemv_kernel[(triton.cdiv(m, BLOCK_M),)](A, x, y, m, n, A.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=1, num_warps=2)
    return y
