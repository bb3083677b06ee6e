import math

import torch
import triton
import triton.language as tl


def generate_input(bh: int, seq: int, dim: int, seed: int):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return tuple(torch.randn(bh, seq, dim, device="cuda", dtype=torch.float16, generator=g) for _ in range(3))


@triton.jit
def flash_fwd(Q, K, V, O, sm_scale, seq, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    base = tl.program_id(1) * seq * D
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + base + offs_m[:, None] * D + offs_d[None, :], mask=offs_m[:, None] < seq, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for start_n in range(0, seq, BLOCK_N):
        cols = start_n + offs_n
        kt = tl.load(K + base + cols[None, :] * D + offs_d[:, None], mask=cols[None, :] < seq, other=0.0)
        s = tl.dot(q, kt) * sm_scale
        s = tl.where(cols[None, :] < seq, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + cols[:, None] * D + offs_d[None, :], mask=cols[:, None] < seq, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(O + base + offs_m[:, None] * D + offs_d[None, :], acc.to(tl.float16), mask=offs_m[:, None] < seq)


def custom_kernel(data):
    q, k, v = data
    bh, seq, dim = q.shape
    o = torch.empty_like(q)
    grid = (triton.cdiv(seq, 64), bh)
    flash_fwd[grid](q, k, v, o, 1.0 / math.sqrt(dim), seq, D=dim, BLOCK_M=64, BLOCK_N=64, num_warps=4)
    return o
