"""Batched GEMV y[b] = A[b] @ x[b], thread-per-row mapping: one program per (128 rows, batch), each
lane owns a row and walks it one column per iteration (uncoalesced, 4 KB-strided lanes,
1024 iterations); only 8 x 64 programs, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = batched_gemv(A, x); A: f32[64, 1024, 1024] randn; x: f32[64, 1024] randn; rtol = 1e-3; atol = 1e-2
@triton.jit
def batched_gemv_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_ab, stride_am, stride_xb, stride_yb, k_per_program,
                        BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    # BLOCK_K is unused (1): each of the BLOCK_M lanes owns one row and walks along it one
    # column per iteration, so a warp's load touches 32 rows 4 KB apart.
    b = tl.program_id(1)
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    a_rows = a_ptr + b * stride_ab + rows * stride_am
    acc = tl.zeros([BLOCK_M], dtype=tl.float32)
    for k in range(0, k_per_program):
        a = tl.load(a_rows + k, mask=row_mask, other=0.0)
        xk = tl.load(x_ptr + b * stride_xb + k)
        acc += a * xk
    tl.store(y_ptr + b * stride_yb + rows, acc, mask=row_mask)


def batched_gemv(A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    B, M, K = A.shape
    y = torch.empty((B, M), device=A.device, dtype=torch.float32)
    BLOCK_M, BLOCK_K = 128, 1
    grid = (triton.cdiv(M, BLOCK_M), B)
    batched_gemv_kernel[grid](A, x, y, M, K, A.stride(0), A.stride(1), x.stride(0), y.stride(0), K,
                              BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K, num_warps=4)
    return y
