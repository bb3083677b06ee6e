"""Softmax over dim 0, online max/sum pass then a write pass: one program per 32
columns (128-byte row segments, 256 programs) with 32 x 32 tiles and only 2 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = softmax_dim0(x); x: f32[4096, 8192]; rtol = 1e-4; atol = 1e-7
@triton.jit
def softmax_dim0_kernel(x_ptr, y_ptr, M, N, stride, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    col_mask = cols < N
    m = tl.full([BLOCK_M, BLOCK_N], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for start in range(0, M, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & col_mask[None, :]
        x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=float("-inf"))
        m_new = tl.maximum(m, x)
        # lanes that have seen nothing yet keep s = 0 (avoid inf - inf)
        scale = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        s = s * scale + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    col_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == float("-inf"), 0.0, s * tl.exp(m - col_max[None, :])), axis=0)
    inv = 1.0 / total
    for start in range(0, M, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & col_mask[None, :]
        offs = rows[:, None] * stride + cols[None, :]
        x = tl.load(x_ptr + offs, mask=mask, other=float("-inf"))
        tl.store(y_ptr + offs, tl.exp(x - col_max[None, :]) * inv[None, :], mask=mask)


def softmax_dim0(x: torch.Tensor) -> torch.Tensor:
    m, n = x.shape
    y = torch.empty_like(x)
    BLOCK_M, BLOCK_N = 32, 32
    grid = (triton.cdiv(n, BLOCK_N),)
    softmax_dim0_kernel[grid](x, y, m, n, x.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=2)
    return y
