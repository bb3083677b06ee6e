"""Squared Euclidean distances D[i, j] = sum_k (x[i, k] - y[j, k])^2, first version: one
program per (128 columns j, row i) loops over k one at a time, loading x[i, k] and a
gather of y[j, k] (128 floats 512 B apart) and accumulating the squared differences;
32 x 4096 programs, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = pairwise_l2(x, y); x: f32[4096, 128] randn; y: f32[4096, 128] randn; rtol = 1e-3; atol = 0.1
@triton.jit
def pairwise_l2_kernel(x_ptr, y_ptr, d_ptr, M, N, K, stride_x, stride_y, stride_d,
                       BLOCK_I: tl.constexpr, BLOCK_J: tl.constexpr, BLOCK_K: tl.constexpr):
    i = tl.program_id(1)
    offs_j = tl.program_id(0) * BLOCK_J + tl.arange(0, BLOCK_J)
    mask_j = offs_j < N
    acc = tl.zeros([BLOCK_J], dtype=tl.float32)
    for k in range(0, K):
        xv = tl.load(x_ptr + i * stride_x + k)
        yv = tl.load(y_ptr + offs_j * stride_y + k, mask=mask_j, other=0.0)
        diff = xv - yv
        acc += diff * diff
    tl.store(d_ptr + i * stride_d + offs_j, acc, mask=mask_j)


def pairwise_l2(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = y.contiguous()
    M, K = x.shape
    N, _ = y.shape
    d = torch.empty((M, N), device=x.device, dtype=torch.float32)
    BLOCK_J = 128
    grid = (triton.cdiv(N, BLOCK_J), M)
    pairwise_l2_kernel[grid](x, y, d, M, N, K, x.stride(0), y.stride(0), d.stride(0),
                             BLOCK_I=1, BLOCK_J=BLOCK_J, BLOCK_K=1, num_warps=4)
    return d
