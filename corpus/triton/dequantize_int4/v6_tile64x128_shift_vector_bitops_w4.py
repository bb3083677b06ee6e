"""int4 dequantisation out[k, n] = (((q[k // 8, n] >> 4 * (k % 8)) & 15) - zeros[g, n]) * scales[g, n], g = k // 128,
packed int32 words [K/8, N], fp32 out [K, N]: v1 (64 x 128 tiles, broadcast shift vector, 4 warps)
with the index arithmetic written as bit operations and the scale/zero loads issued first."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = dequantize_int4(qweight, scales, zeros); qweight: i32[512, 4096] randint(-2147483648, 2147483647); scales: f32[32, 4096] rand; zeros: f32[32, 4096] randn; rtol = 1e-5; atol = 1e-5
@triton.jit
def dequant_int4_kernel(q_ptr, scales_ptr, zeros_ptr, out_ptr, K, N,
                        GROUP: tl.constexpr, BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    rk = tl.program_id(0) * BLOCK_K + tl.arange(0, BLOCK_K)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    in_bounds = (rk[:, None] < K) & (rn[None, :] < N)
    grp = rk // GROUP
    scale = tl.load(scales_ptr + grp[:, None] * N + rn[None, :], mask=in_bounds, other=0.0)
    zero = tl.load(zeros_ptr + grp[:, None] * N + rn[None, :], mask=in_bounds, other=0.0)
    word = tl.load(q_ptr + (rk[:, None] >> 3) * N + rn[None, :], mask=in_bounds, other=0)
    nib = (word >> ((rk & 7) << 2)[:, None]) & 0xF
    tl.store(out_ptr + rk[:, None] * N + rn[None, :], (nib.to(tl.float32) - zero) * scale, mask=in_bounds)


def dequantize_int4(qweight: torch.Tensor, scales: torch.Tensor, zeros: torch.Tensor) -> torch.Tensor:
    K = qweight.shape[0] * 8
    N = qweight.shape[1]
    out = torch.empty((K, N), device=qweight.device, dtype=torch.float32)
    grid = (triton.cdiv(K, 64), triton.cdiv(N, 128))
    dequant_int4_kernel[grid](qweight, scales, zeros, out, K, N, GROUP=128, BLOCK_K=64, BLOCK_N=128, num_warps=4)
    return out
