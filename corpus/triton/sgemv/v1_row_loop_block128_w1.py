"""y = A x for a row-major A[m, n]: one program per row, looping over the row in
128-wide chunks with a vector accumulator; one warp per program (4 values per
lane per step, 32 steps per row)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = sgemv(A, x); A: f32[8192, 4096]; x: f32[4096]; rtol = 1e-3; atol = 1e-2
@triton.jit
def sgemv_kernel(a_ptr, x_ptr, y_ptr, m, n, stride_a, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < n
        a = tl.load(a_ptr + row * stride_a + cols, mask=mask, other=0.0)
        xv = tl.load(x_ptr + cols, mask=mask, other=0.0)
        acc += a * xv
    tl.store(y_ptr + row, tl.sum(acc, axis=0))


def sgemv(A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    m, n = A.shape
    y = torch.empty((m,), device=A.device, dtype=torch.float32)
    sgemv_kernel[(m,)](A, x, y, m, n, A.stride(0), BLOCK_M=1, BLOCK_N=128, num_warps=1)
    return y
