"""Softmax over dim 0, the 64 x 64 three-pass version (128 programs, 4 warps) with
renamed variables, the tile pointers built once and offset by the row start, and the
row mask computed from the remaining row count."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = softmax_dim0(x); x: f32[4096, 8192]; rtol = 1e-4; atol = 1e-7
@triton.jit
def softmax_dim0_kernel(x_ptr, y_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_n = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_m = tl.arange(0, BLOCK_M)
    n_ok = offs_n < N
    tile = offs_m[:, None] * stride + offs_n[None, :]
    running_max = tl.full([BLOCK_M, BLOCK_N], float("-inf"), tl.float32)
    for r0 in range(0, M, BLOCK_M):
        ok = (offs_m[:, None] < M - r0) & n_ok[None, :]
        v = tl.load(x_ptr + r0 * stride + tile, mask=ok, other=float("-inf"))
        running_max = tl.maximum(running_max, v)
    mx = tl.max(running_max, axis=0)
    denom = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for r0 in range(0, M, BLOCK_M):
        ok = (offs_m[:, None] < M - r0) & n_ok[None, :]
        v = tl.load(x_ptr + r0 * stride + tile, mask=ok, other=float("-inf"))
        denom += tl.where(ok, tl.exp(v - mx[None, :]), 0.0)
    scale = 1.0 / tl.sum(denom, axis=0)
    for r0 in range(0, M, BLOCK_M):
        ok = (offs_m[:, None] < M - r0) & n_ok[None, :]
        v = tl.load(x_ptr + r0 * stride + tile, mask=ok, other=float("-inf"))
        tl.store(y_ptr + r0 * stride + tile, tl.exp(v - mx[None, :]) * scale[None, :], mask=ok)


def softmax_dim0(x: torch.Tensor) -> torch.Tensor:
    m, n = x.shape
    y = torch.empty_like(x)
    BLOCK_M, BLOCK_N = 64, 64
    grid = (triton.cdiv(n, BLOCK_N),)
    softmax_dim0_kernel[grid](x, y, m, n, x.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return y
