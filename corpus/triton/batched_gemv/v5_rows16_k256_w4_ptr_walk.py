"""Batched GEMV y[b] = A[b] @ x[b], the [16, 256] / 4-warp kernel of v0 rewritten: pointer tiles
advanced by 256 columns per iteration, the x chunk loaded first, renamed variables."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = batched_gemv(A, x); A: f32[64, 1024, 1024] randn; x: f32[64, 1024] randn; rtol = 1e-3; atol = 1e-2
@triton.jit
def batched_gemv_kernel(a_ptr, x_ptr, y_ptr, M, K, stride_ab, stride_am, stride_xb, stride_yb, k_per_program,
                        BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    batch = tl.program_id(1)
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = tl.arange(0, BLOCK_K)
    m_ok = offs_m < M
    a_ptrs = a_ptr + batch * stride_ab + offs_m[:, None] * stride_am + offs_k[None, :]
    x_ptrs = x_ptr + batch * stride_xb + offs_k
    partial = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
    for k0 in range(0, k_per_program, BLOCK_K):
        k_ok = offs_k < K - k0
        xv = tl.load(x_ptrs, mask=k_ok, other=0.0)
        tile = tl.load(a_ptrs, mask=m_ok[:, None] & k_ok[None, :], other=0.0)
        partial += tile * xv[None, :]
        a_ptrs += BLOCK_K
        x_ptrs += BLOCK_K
    out = tl.sum(partial, axis=1)
    tl.store(y_ptr + batch * stride_yb + offs_m, out, mask=m_ok)


def batched_gemv(A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    B, M, K = A.shape
    y = torch.empty((B, M), device=A.device, dtype=torch.float32)
    BLOCK_M, BLOCK_K = 16, 256
    grid = (triton.cdiv(M, BLOCK_M), B)
    batched_gemv_kernel[grid](A, x, y, M, K, A.stride(0), A.stride(1), x.stride(0), y.stride(0), K,
                              BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K, num_warps=4)
    return y
