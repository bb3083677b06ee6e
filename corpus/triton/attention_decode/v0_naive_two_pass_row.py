"""Single-query decode attention over a KV cache (q [BH, D], k/v [BH, S, D], fp16, fp32 math): naive,
one program per (batch, head) row and two passes over the keys: the first finds the maximum score,
the second recomputes every score, exponentiates and accumulates the sum and P @ V."""
import math

import torch
import triton
import triton.language as tl


# kforecast: wrapper = attention_decode(q, k, v); q: f16[32, 128]; k: f16[32, 16384, 128]; v: f16[32, 16384, 128]; rtol = 1e-2; atol = 1e-4
@triton.jit
def attn_decode_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, sm_scale,
                       HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK_N)
    q = tl.load(q_ptr + row * HEAD_DIM + offs_d).to(tl.float32)
    kv_base = row.to(tl.int64) * seq_len * HEAD_DIM
    # pass 1: the row maximum of the scores
    m_vec = tl.full([BLOCK_N], float("-inf"), dtype=tl.float32)
    for start in range(0, seq_len, BLOCK_N):
        cols = start + offs_n
        mask = cols < seq_len
        k = tl.load(k_ptr + kv_base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=mask[:, None], other=0.0)
        s = tl.sum(k.to(tl.float32) * q[None, :], axis=1) * sm_scale
        m_vec = tl.maximum(m_vec, tl.where(mask, s, float("-inf")))
    m = tl.max(m_vec, axis=0)
    # pass 2: scores again, exp, sum and weighted sum of V
    l_vec = tl.zeros([BLOCK_N], dtype=tl.float32)
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for start in range(0, seq_len, BLOCK_N):
        cols = start + offs_n
        mask = cols < seq_len
        k = tl.load(k_ptr + kv_base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=mask[:, None], other=0.0)
        s = tl.sum(k.to(tl.float32) * q[None, :], axis=1) * sm_scale
        p = tl.where(mask, tl.exp(s - m), 0.0)
        l_vec += p
        v = tl.load(v_ptr + kv_base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=mask[:, None], other=0.0)
        acc += tl.sum(p[:, None] * v.to(tl.float32), axis=0)
    out = acc / tl.sum(l_vec, axis=0)
    tl.store(o_ptr + row * HEAD_DIM + offs_d, out.to(o_ptr.dtype.element_ty))


def attention_decode(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    BH, S, D = k.shape
    assert q.shape == (BH, D) and k.is_contiguous() and v.is_contiguous() and q.is_contiguous()
    o = torch.empty_like(q)
    attn_decode_kernel[(BH,)](q, k, v, o, S, 1.0 / math.sqrt(D), HEAD_DIM=D, BLOCK_N=64, num_warps=4)
    return o
