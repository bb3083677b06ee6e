"""Batched GEMV y[b] = A[b] @ x[b]: one program per single row walks it 32 columns at a time (a
[1, 32] tile for 128 threads, 32 dependent iterations); 1024 x 64 programs, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = batched_gemv(A, x); A: f32[64, 1024, 1024] randn; x: f32[64, 1024] randn; rtol = 1e-3; atol = 1e-2
@triton.jit
def batched_gemv_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_ab, stride_am, stride_xb, stride_yb, k_per_program,
                        BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    b = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    a_base = a_ptr + b * stride_ab
    acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
    for k0 in range(0, k_per_program, BLOCK_K):
        ks = k0 + tl.arange(0, BLOCK_K)
        k_mask = ks < K
        a = tl.load(a_base + rows[:, None] * stride_am + ks[None, :], mask=row_mask[:, None] & k_mask[None, :], other=0.0)
        xv = tl.load(x_ptr + b * stride_xb + ks, mask=k_mask, other=0.0)
        acc += a * xv[None, :]
    tl.store(y_ptr + b * stride_yb + rows, tl.sum(acc, axis=1), mask=row_mask)


def batched_gemv(A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    B, M, K = A.shape
    y = torch.empty((B, M), device=A.device, dtype=torch.float32)
    BLOCK_M, BLOCK_K = 1, 32
    grid = (triton.cdiv(M, BLOCK_M), B)
    batched_gemv_kernel[grid](A, x, y, M, K, A.stride(0), A.stride(1), x.stride(0), y.stride(0), K,
                              BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K, num_warps=4)
    return y
