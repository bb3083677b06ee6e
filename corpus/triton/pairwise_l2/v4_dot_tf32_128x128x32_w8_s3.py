"""Squared Euclidean distances by the expansion |x_i|^2 + |y_j|^2 - 2 x_i . y_j: 128 x 128
output tiles, k in chunks of 32; the cross term is a TF32 tensor-core tl.dot
(input_precision "tf32") of an x tile and a transposed y tile, the squared norms are
fp32 row / column sums of the same tiles; 8 warps, 3 stages."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = pairwise_l2(x, y); x: f32[4096, 128] randn; y: f32[4096, 128] randn; rtol = 1e-3; atol = 0.1
@triton.jit
def pairwise_l2_kernel(x_ptr, y_ptr, d_ptr, M, N, K, stride_x, stride_y, stride_d,
                       BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_i = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    offs_j = tl.program_id(0) * BLOCK_J + tl.arange(0, BLOCK_J)
    offs_k = tl.arange(0, BLOCK_K)
    mask_i = offs_i < M
    mask_j = offs_j < N
    acc = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
    x_sq = tl.zeros([BLOCK_I], dtype=tl.float32)
    y_sq = tl.zeros([BLOCK_J], dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + offs_k
        xt = tl.load(x_ptr + offs_i[:, None] * stride_x + ks[None, :],
                     mask=mask_i[:, None] & (ks[None, :] < K), other=0.0)
        yt = tl.load(y_ptr + offs_j[None, :] * stride_y + ks[:, None],
                     mask=(ks[:, None] < K) & mask_j[None, :], other=0.0)
        x_sq += tl.sum(xt * xt, axis=1)
        y_sq += tl.sum(yt * yt, axis=0)
        acc = tl.dot(xt, yt, acc, input_precision="tf32")
    dist = x_sq[:, None] + y_sq[None, :] - 2.0 * acc
    dist = tl.maximum(dist, 0.0)
    tl.store(d_ptr + offs_i[:, None] * stride_d + offs_j[None, :], dist, mask=mask_i[:, None] & mask_j[None, :])


def pairwise_l2(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = y.contiguous()
    M, K = x.shape
    N, _ = y.shape
    d = torch.empty((M, N), device=x.device, dtype=torch.float32)
    BLOCK_I, BLOCK_J, BLOCK_K = 128, 128, 32
    grid = (triton.cdiv(N, BLOCK_J), triton.cdiv(M, BLOCK_I))
    pairwise_l2_kernel[grid](x, y, d, M, N, K, x.stride(0), y.stride(0), d.stride(0),
                             BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, BLOCK_K=BLOCK_K, num_warps=8, num_stages=3)
    return d
