import torch
import triton
import triton.language as tl


@triton.jit
def _decode_attn_fwd(Q, K, V, Out, SeqLens, sm_scale,
                     stride_qb, stride_qh, stride_kb, stride_ks, stride_kh,
                     stride_ob, stride_oh,
                     BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    # one program per (sequence, head); K and V in the same loop, online softmax
    b = tl.program_id(0)
    h = tl.program_id(1)
    seq_len = tl.load(SeqLens + b)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK_N)
    q = tl.load(Q + b * stride_qb + h * stride_qh + offs_d).to(tl.float32)
    k_base = K + b * stride_kb + h * stride_kh
    v_base = V + b * stride_kb + h * stride_kh
    m_i = -float("inf")
    l_i = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for start in range(0, seq_len, BLOCK_N):
        n = start + offs_n
        mask_n = n < seq_len
        kv_offs = n[:, None] * stride_ks + offs_d[None, :]
        k = tl.load(k_base + kv_offs, mask=mask_n[:, None], other=0.0)
        v = tl.load(v_base + kv_offs, mask=mask_n[:, None], other=0.0)
        qk = tl.sum(k.to(tl.float32) * q[None, :], axis=1) * sm_scale
        qk = tl.where(mask_n, qk, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=0))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(qk - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=0)
        acc = acc * alpha + tl.sum(p[:, None] * v.to(tl.float32), axis=0)
        m_i = m_new
    tl.store(Out + b * stride_ob + h * stride_oh + offs_d, (acc / l_i).to(Out.dtype.element_ty))


def decode_attention(q, k_cache, v_cache, seq_lens, sm_scale):
    B, S, H, D = k_cache.shape
    assert q.shape == (B, H, D) and v_cache.stride() == k_cache.stride()
    out = torch.empty_like(q)
    _decode_attn_fwd[(B, H)](q, k_cache, v_cache, out, seq_lens, sm_scale,
                             q.stride(0), q.stride(1), k_cache.stride(0), k_cache.stride(1),
                             k_cache.stride(2), out.stride(0), out.stride(1),
                             BLOCK_N=64, HEAD_DIM=D, num_warps=4)
    return out
