"""Weight-only int8 GEMM out = x @ (w * scale), x fp16 [M, K], w int8 [K, N], per-column fp32 scale,
scale after the K loop; 128 x 128 x 32 tiles, 8 warps, 3 stages, no grouping."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = w8_matmul(x, w, scale); x: f16[2048, 4096]; w: i8[4096, 4096] randint(-127, 128); scale: f32[4096] rand; rtol = 1e-2; atol = 8.0
@triton.jit
def w8_matmul_kernel(x_ptr, w_ptr, scale_ptr, out_ptr, M, N, K,
                     stride_xm, stride_xk, stride_wk, stride_wn, stride_om, stride_on,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    # Plain row-major tile order (GROUP_M == 1).
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    x_ptrs = x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn
    scale = tl.load(scale_ptr + offs_n, mask=offs_n < N, other=0.0)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        a = tl.load(x_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_remaining), other=0.0)
        wq = tl.load(w_ptrs, mask=(offs_k[:, None] < k_remaining) & (offs_n[None, :] < N), other=0)
        # int8 -> fp16 is exact; the per-column scale is applied once, after the K loop.
        acc = tl.dot(a, wq.to(tl.float16), acc)
        x_ptrs += BLOCK_K * stride_xk
        w_ptrs += BLOCK_K * stride_wk
    acc = acc * scale[None, :]

    out_ptrs = out_ptr + offs_m[:, None] * stride_om + offs_n[None, :] * stride_on
    tl.store(out_ptrs, acc.to(tl.float16), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def w8_matmul(x: torch.Tensor, w: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    _, N = w.shape
    out = torch.empty((M, N), device=x.device, dtype=torch.float16)
    BLOCK_M, BLOCK_N, BLOCK_K = 128, 128, 32
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    w8_matmul_kernel[grid](x, w, scale, out, M, N, K,
                           x.stride(0), x.stride(1), w.stride(0), w.stride(1), out.stride(0), out.stride(1),
                           BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=1,
                           num_warps=8, num_stages=3)
    return out
