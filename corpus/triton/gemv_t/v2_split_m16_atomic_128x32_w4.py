"""y = A^T x, split-M: a 2-D grid gives each program 128 columns and a 1024-row slice
(32 x 128 tiles), and the partial column sums are added to a zero-initialised y with
tl.atomic_add; 64 x 16 = 1024 programs, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = gemv_t(A, x); A: f32[16384, 8192]; x: f32[16384]; rtol = 1e-3; atol = 1e-2
@triton.jit
def gemv_t_kernel(a_ptr, x_ptr, y_ptr, M, N, stride_a, rows_per_program, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    col_mask = cols < N
    row0 = tl.program_id(1) * rows_per_program
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, rows_per_program, BLOCK_M):
        rows = row0 + start + tl.arange(0, BLOCK_M)
        row_mask = rows < M
        a = tl.load(a_ptr + rows[:, None] * stride_a + cols[None, :], mask=row_mask[:, None] & col_mask[None, :], other=0.0)
        xv = tl.load(x_ptr + rows, mask=row_mask, other=0.0)
        acc += a * xv[:, None]
    tl.atomic_add(y_ptr + cols, tl.sum(acc, axis=0), mask=col_mask)


def gemv_t(A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    m, n = A.shape
    y = torch.zeros((n,), device=A.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, ROWS_PER_PROGRAM = 32, 128, 1024
    grid = (triton.cdiv(n, BLOCK_N), triton.cdiv(m, ROWS_PER_PROGRAM))
    gemv_t_kernel[grid](A, x, y, m, n, A.stride(0), ROWS_PER_PROGRAM, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                        num_warps=4)
    return y
