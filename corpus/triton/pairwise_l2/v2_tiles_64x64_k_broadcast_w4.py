"""Squared Euclidean distances: 2-D output tiles of 64 rows i x 64 columns j; the loop
over k loads one column of the x tile and one of the y tile and adds the squared
broadcast difference to a [64, 64] register accumulator (32 per thread);
64 x 64 programs, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = pairwise_l2(x, y); x: f32[4096, 128] randn; y: f32[4096, 128] randn; rtol = 1e-3; atol = 0.1
@triton.jit
def pairwise_l2_kernel(x_ptr, y_ptr, d_ptr, M, N, K, stride_x, stride_y, stride_d,
                       BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_i = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    offs_j = tl.program_id(0) * BLOCK_J + tl.arange(0, BLOCK_J)
    mask_i = offs_i < M
    mask_j = offs_j < N
    acc = tl.zeros([BLOCK_I, BLOCK_J], dtype=tl.float32)
    for k in range(0, K):
        xk = tl.load(x_ptr + offs_i * stride_x + k, mask=mask_i, other=0.0)
        yk = tl.load(y_ptr + offs_j * stride_y + k, mask=mask_j, other=0.0)
        diff = xk[:, None] - yk[None, :]
        acc += diff * diff
    tl.store(d_ptr + offs_i[:, None] * stride_d + offs_j[None, :], acc, mask=mask_i[:, None] & mask_j[None, :])


def pairwise_l2(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = y.contiguous()
    M, K = x.shape
    N, _ = y.shape
    d = torch.empty((M, N), device=x.device, dtype=torch.float32)
    BLOCK_I, BLOCK_J = 64, 64
    grid = (triton.cdiv(N, BLOCK_J), triton.cdiv(M, BLOCK_I))
    pairwise_l2_kernel[grid](x, y, d, M, N, K, x.stride(0), y.stride(0), d.stride(0),
                             BLOCK_I=BLOCK_I, BLOCK_J=BLOCK_J, BLOCK_K=1, num_warps=4)
    return d
