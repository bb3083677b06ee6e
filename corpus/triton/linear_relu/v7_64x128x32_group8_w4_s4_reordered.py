"""y = relu(x @ w + b): the 64 x 128 x 32, GROUP_M = 8, 4-warp, 4-stage version with renamed
variables, the swizzle written differently, pointers recomputed from k0 each step
and acc += tl.dot(a, b) instead of passing the accumulator."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = linear_relu(x, w, b); x: f16[4096, 1024] randn; w: f16[1024, 4096] randn; b: f16[4096] randn; rtol = 1e-2; atol = 1e-2
@triton.jit
def linear_relu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K,
                       stride_xm, stride_xk, stride_wk, stride_wn, stride_ym, stride_yn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                       GROUP_M: tl.constexpr, FUSE_EPILOGUE: tl.constexpr):
    pid = tl.program_id(0)
    n_tiles_m = tl.cdiv(M, BLOCK_M)
    n_tiles_n = tl.cdiv(N, BLOCK_N)
    tiles_per_group = GROUP_M * n_tiles_n
    first_m = (pid // tiles_per_group) * GROUP_M
    rows_in_group = min(n_tiles_m - first_m, GROUP_M)
    local = pid % tiles_per_group
    tile_n = local // rows_in_group
    tile_m = first_m + local % rows_in_group

    rm = tile_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tile_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    row_ok = rm < M
    col_ok = rn < N

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :] * stride_xk,
                    mask=row_ok[:, None] & (kk[None, :] < K), other=0.0)
        bw = tl.load(w_ptr + kk[:, None] * stride_wk + rn[None, :] * stride_wn,
                     mask=(kk[:, None] < K) & col_ok[None, :], other=0.0)
        acc += tl.dot(a, bw)

    if FUSE_EPILOGUE:
        bias = tl.load(b_ptr + rn, mask=col_ok, other=0.0).to(tl.float32)
        acc = tl.maximum(acc + bias[None, :], 0.0)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, acc,
             mask=row_ok[:, None] & col_ok[None, :])


def linear_relu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    _, N = w.shape
    y = torch.empty((M, N), device=x.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, BLOCK_K = 64, 128, 32
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    linear_relu_kernel[grid](x, w, b, y, M, N, K,
                             x.stride(0), x.stride(1), w.stride(0), w.stride(1), y.stride(0), y.stride(1),
                             BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
                             FUSE_EPILOGUE=True, num_warps=4, num_stages=4)
    return y
