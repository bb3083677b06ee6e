"""Causal attention forward, fp16 q/k/v [BH, S, D]: naive, one program per query row that materialises
the full row of scores (fp32 CUDA-core dot products in 16-wide head-dim chunks), softmax, then P @ V."""
import math

import torch
import triton
import triton.language as tl


# kforecast: wrapper = attention(q, k, v); q: f16[32, 1024, 64]; k: f16[32, 1024, 64]; v: f16[32, 1024, 64]; rtol = 1e-2; atol = 1e-2
@triton.jit
def attn_fwd_kernel(q_ptr, k_ptr, v_ptr, o_ptr, stride_h, stride_m, seq_len, sm_scale,
                    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # One program per query row; BLOCK_N covers the whole key range, BLOCK_M is unused (1).
    row = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh * stride_h
    offs_n = tl.arange(0, BLOCK_N)
    offs_c = tl.arange(0, 16)
    visible = offs_n <= row  # causal (and row < seq_len, so padded keys are masked too)
    scores = tl.zeros([BLOCK_N], dtype=tl.float32)
    for d0 in tl.static_range(0, HEAD_DIM, 16):
        qc = tl.load(q_ptr + base + row * stride_m + d0 + offs_c).to(tl.float32)
        kc = tl.load(k_ptr + base + offs_n[:, None] * stride_m + d0 + offs_c[None, :],
                     mask=visible[:, None], other=0.0).to(tl.float32)
        scores += tl.sum(kc * qc[None, :], axis=1)
    scores = tl.where(visible, scores * sm_scale, float("-inf"))
    p = tl.exp(scores - tl.max(scores, axis=0))
    denom = tl.sum(p, axis=0)
    for d0 in tl.static_range(0, HEAD_DIM, 16):
        vc = tl.load(v_ptr + base + offs_n[:, None] * stride_m + d0 + offs_c[None, :],
                     mask=visible[:, None], other=0.0).to(tl.float32)
        o = tl.sum(p[:, None] * vc, axis=0) / denom
        tl.store(o_ptr + base + row * stride_m + d0 + offs_c, o.to(tl.float16))


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    BH, S, Dh = q.shape
    assert q.is_contiguous() and k.is_contiguous() and v.is_contiguous() and Dh % 16 == 0
    o = torch.empty_like(q)
    BLOCK_N = triton.next_power_of_2(S)
    attn_fwd_kernel[(S, BH)](q, k, v, o, q.stride(0), q.stride(1), S, 1.0 / math.sqrt(Dh),
                             HEAD_DIM=Dh, BLOCK_M=1, BLOCK_N=BLOCK_N, num_warps=4, num_stages=1)
    return o
