"""int4 dequantisation out[k, n] = (((q[k // 8, n] >> 4 * (k % 8)) & 15) - zeros[g, n]) * scales[g, n], g = k // 128,
packed int32 words [K/8, N], fp32 out [K, N]: one program per 128 x 128 output tile,
broadcast shift vector; only 2 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = dequantize_int4(qweight, scales, zeros); qweight: i32[512, 4096] randint(-2147483648, 2147483647); scales: f32[32, 4096] rand; zeros: f32[32, 4096] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def dequant_int4_kernel(q_ptr, scales_ptr, zeros_ptr, out_ptr, K, N,
                        GROUP: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_k = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_k = pid_k * BLOCK_K + tl.arange(0, BLOCK_K)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_k[:, None] < K) & (offs_n[None, :] < N)
    # Every packed word is loaded by the 8 rows it holds (the repeats hit in cache).
    q = tl.load(q_ptr + (offs_k[:, None] // 8) * N + offs_n[None, :], mask=mask, other=0)
    shift = (offs_k % 8) * 4
    w = (q >> shift[:, None]) & 0xF
    g = offs_k // GROUP
    s = tl.load(scales_ptr + g[:, None] * N + offs_n[None, :], mask=mask, other=0.0)
    z = tl.load(zeros_ptr + g[:, None] * N + offs_n[None, :], mask=mask, other=0.0)
    out = (w.to(tl.float32) - z) * s
    tl.store(out_ptr + offs_k[:, None] * N + offs_n[None, :], out, mask=mask)


def dequantize_int4(qweight: torch.Tensor, scales: torch.Tensor, zeros: torch.Tensor) -> torch.Tensor:
    K = qweight.shape[0] * 8
    N = qweight.shape[1]
    out = torch.empty((K, N), device=qweight.device, dtype=torch.float32)
    grid = (triton.cdiv(K, 128), triton.cdiv(N, 128))
    dequant_int4_kernel[grid](qweight, scales, zeros, out, K, N, GROUP=128, BLOCK_K=128, BLOCK_N=128, num_warps=2)
    return out
