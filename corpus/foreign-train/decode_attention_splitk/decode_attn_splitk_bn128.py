import torch
import triton
import triton.language as tl


@triton.jit
def flash_decode_partial_kernel(Q, K, V, MidO, MidM, MidL, SeqLens, sm_scale,
                       stride_qb, stride_qh, stride_kb, stride_ks, stride_kh,
                       stride_mb, stride_mh, stride_ms,
                       split_len,
                       BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    # one program per (sequence, head, split): a partial softmax over its stretch of the cache
    b = tl.program_id(0)
    h = tl.program_id(1)
    split = tl.program_id(2)
    seq_len = tl.load(SeqLens + b)
    lo = split * split_len
    hi = tl.minimum(lo + split_len, seq_len)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK_N)
    q = tl.load(Q + b * stride_qb + h * stride_qh + offs_d).to(tl.float32)
    k_base = K + b * stride_kb + h * stride_kh
    v_base = V + b * stride_kb + h * stride_kh
    m_i = -float("inf")
    l_i = 0.0
    acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for start in range(lo, hi, BLOCK_N):
        n = start + offs_n
        mask_n = n < hi
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
    mid = b * stride_mb + h * stride_mh + split * stride_ms
    tl.store(MidO + mid * HEAD_DIM + offs_d, acc)
    tl.store(MidM + mid, m_i)
    tl.store(MidL + mid, l_i)


@triton.jit
def flash_decode_combine_kernel(MidO, MidM, MidL, Out, stride_mb, stride_mh, stride_ob, stride_oh,
                       NUM_SPLITS: tl.constexpr, HEAD_DIM: tl.constexpr):
    b = tl.program_id(0)
    h = tl.program_id(1)
    offs_s = tl.arange(0, NUM_SPLITS)
    offs_d = tl.arange(0, HEAD_DIM)
    mid = b * stride_mb + h * stride_mh + offs_s
    m = tl.load(MidM + mid)
    l = tl.load(MidL + mid)
    o = tl.load(MidO + mid[:, None] * HEAD_DIM + offs_d[None, :])
    m_max = tl.max(m, axis=0)
    w = tl.exp(m - m_max)  # empty splits have m = -inf: weight 0
    out = tl.sum(w[:, None] * o, axis=0) / tl.sum(w * l, axis=0)
    tl.store(Out + b * stride_ob + h * stride_oh + offs_d, out.to(Out.dtype.element_ty))


def decode_attention(q, k_cache, v_cache, seq_lens, sm_scale):
    B, S, H, D = k_cache.shape
    assert q.shape == (B, H, D) and v_cache.stride() == k_cache.stride()
    BLOCK_N = 128
    # enough splits to fill the GPU with short caches, at most 32
    NUM_SPLITS = min(32, triton.next_power_of_2(max(1, triton.cdiv(S, 256))))
    split_len = triton.cdiv(triton.cdiv(S, NUM_SPLITS), BLOCK_N) * BLOCK_N
    mid_o = torch.empty((B, H, NUM_SPLITS, D), dtype=torch.float32, device=q.device)
    mid_m = torch.empty((B, H, NUM_SPLITS), dtype=torch.float32, device=q.device)
    mid_l = torch.empty((B, H, NUM_SPLITS), dtype=torch.float32, device=q.device)
    flash_decode_partial_kernel[(B, H, NUM_SPLITS)](
        q, k_cache, v_cache, mid_o, mid_m, mid_l, seq_lens, sm_scale,
        q.stride(0), q.stride(1), k_cache.stride(0), k_cache.stride(1), k_cache.stride(2),
        mid_m.stride(0), mid_m.stride(1), mid_m.stride(2), split_len,
        BLOCK_N=BLOCK_N, HEAD_DIM=D, num_warps=8, num_stages=2)
    out = torch.empty_like(q)
    flash_decode_combine_kernel[(B, H)](mid_o, mid_m, mid_l, out, mid_m.stride(0), mid_m.stride(1),
                               out.stride(0), out.stride(1),
                               NUM_SPLITS=NUM_SPLITS, HEAD_DIM=D, num_warps=4)
    return out
