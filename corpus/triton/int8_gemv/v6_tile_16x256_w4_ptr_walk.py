"""y = (W_int8 @ x) * scale[row], 16 x 256 tiles as v1 (4 warps), but the W and x pointer tiles are built once and advanced by BLOCK_K each iteration instead of recomputing the offsets."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = int8_gemv(W, x, scale); W: i8[8192, 8192] randint(-127, 128); x: f32[8192] randn; scale: f32[8192] rand; rtol = 1e-3; atol = 0.1
@triton.jit
def int8_gemv_kernel(w_ptr, x_ptr, scale_ptr, y_ptr, M, K, stride_w, k_per_program, BLOCK_M: tl.constexpr,
                     BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    k_start = tl.program_id(1) * k_per_program
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_k = k_start + tl.arange(0, BLOCK_K)
    w_ptrs = w_ptr + offs_m[:, None] * stride_w + offs_k[None, :]
    x_ptrs = x_ptr + offs_k
    acc = tl.zeros([BLOCK_M, BLOCK_K], dtype=tl.float32)
    for k0 in range(k_start, k_start + k_per_program, BLOCK_K):
        k_ok = offs_k < K - (k0 - k_start)
        w = tl.load(w_ptrs, mask=(offs_m[:, None] < M) & k_ok[None, :], other=0)
        xv = tl.load(x_ptrs, mask=k_ok, other=0.0)
        acc += w.to(tl.float32) * xv[None, :]
        w_ptrs += BLOCK_K
        x_ptrs += BLOCK_K
    s = tl.load(scale_ptr + offs_m, mask=offs_m < M, other=0.0)
    tl.store(y_ptr + offs_m, tl.sum(acc, axis=1) * s, mask=offs_m < M)


def int8_gemv(W: torch.Tensor, x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    M, K = W.shape
    y = torch.empty((M,), device=W.device, dtype=torch.float32)
    BLOCK_M, BLOCK_K = 16, 256
    int8_gemv_kernel[(triton.cdiv(M, BLOCK_M), 1)](W, x, scale, y, M, K, W.stride(0), K, BLOCK_M=BLOCK_M,
                                                   BLOCK_K=BLOCK_K, num_warps=4)
    return y
