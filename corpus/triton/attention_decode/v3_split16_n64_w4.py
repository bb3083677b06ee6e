"""Single-query decode attention over a KV cache (q [BH, D], k/v [BH, S, D], fp16, fp32 math): split-K
(flash-decoding): a grid of (BH, 16) programs, each running the online softmax over one sixteenth of
the keys in blocks of 64 (4 warps) and writing its partial state; a second small kernel merges the
16 partial states of each row."""
import math

import torch
import triton
import triton.language as tl


# kforecast: wrapper = attention_decode(q, k, v); q: f16[32, 128]; k: f16[32, 16384, 128]; v: f16[32, 16384, 128]; rtol = 1e-2; atol = 1e-4
@triton.jit
def attn_decode_kernel(q_ptr, k_ptr, v_ptr, m_ptr, l_ptr, acc_ptr, seq_len, chunk, sm_scale,
                       HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, SPLITS: tl.constexpr):
    # Program (row, split) runs the online softmax over keys [split * chunk, (split + 1) * chunk)
    # and writes its unnormalised state (max, sum, accumulator) to the workspace.
    row = tl.program_id(0)
    split = tl.program_id(1)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK_N)
    q = tl.load(q_ptr + row * HEAD_DIM + offs_d).to(tl.float32)
    kv_base = row.to(tl.int64) * seq_len * HEAD_DIM
    lo = split * chunk
    hi = tl.minimum(lo + chunk, seq_len)
    m_i = tl.zeros([], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([], dtype=tl.float32)
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for start in range(lo, hi, BLOCK_N):
        cols = start + offs_n
        mask = cols < hi
        k = tl.load(k_ptr + kv_base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=mask[:, None], other=0.0)
        v = tl.load(v_ptr + kv_base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=mask[:, None], other=0.0)
        s = tl.sum(k.to(tl.float32) * q[None, :], axis=1) * sm_scale
        s = tl.where(mask, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(s - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        acc = acc * alpha + tl.sum(p[:, None] * v.to(tl.float32), axis=0)
        m_i = m_new
    ws = row * SPLITS + split
    tl.store(m_ptr + ws, m_i)
    tl.store(l_ptr + ws, l_i)
    tl.store(acc_ptr + ws * HEAD_DIM + offs_d, acc)


@triton.jit
def attn_decode_combine_kernel(m_ptr, l_ptr, acc_ptr, o_ptr, HEAD_DIM: tl.constexpr, SPLITS: tl.constexpr):
    # Merge the SPLITS partial states of one row (an empty split has m = -inf and weight 0).
    row = tl.program_id(0)
    offs_s = tl.arange(0, SPLITS)
    offs_d = tl.arange(0, HEAD_DIM)
    m = tl.load(m_ptr + row * SPLITS + offs_s)
    l = tl.load(l_ptr + row * SPLITS + offs_s)
    acc = tl.load(acc_ptr + (row * SPLITS + offs_s[:, None]) * HEAD_DIM + offs_d[None, :])
    m_max = tl.max(m, axis=0)
    w = tl.exp(m - m_max)
    out = tl.sum(acc * w[:, None], axis=0) / tl.sum(l * w, axis=0)
    tl.store(o_ptr + row * HEAD_DIM + offs_d, out.to(o_ptr.dtype.element_ty))


def attention_decode(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    BH, S, D = k.shape
    assert q.shape == (BH, D) and k.is_contiguous() and v.is_contiguous() and q.is_contiguous()
    SPLITS, BLOCK_N = 16, 64
    chunk = triton.cdiv(triton.cdiv(S, SPLITS), BLOCK_N) * BLOCK_N
    m = torch.empty((BH, SPLITS), device=q.device, dtype=torch.float32)
    l = torch.empty((BH, SPLITS), device=q.device, dtype=torch.float32)
    acc = torch.empty((BH, SPLITS, D), device=q.device, dtype=torch.float32)
    o = torch.empty_like(q)
    attn_decode_kernel[(BH, SPLITS)](q, k, v, m, l, acc, S, chunk, 1.0 / math.sqrt(D),
                                     HEAD_DIM=D, BLOCK_N=BLOCK_N, SPLITS=SPLITS, num_warps=4, num_stages=2)
    attn_decode_combine_kernel[(BH,)](m, l, acc, o, HEAD_DIM=D, SPLITS=SPLITS, num_warps=4)
    return o
