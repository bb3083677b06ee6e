import math

import torch
import triton
import triton.language as tl


def generate_input(bh: int, seq: int, dim: int, seed: int):
    g = torch.Generator(device="cuda").manual_seed(seed)
    return tuple(torch.randn(bh, seq, dim, device="cuda", dtype=torch.float16, generator=g) for _ in range(3))


@triton.jit
def attention_kernel_v2(q_ptr, k_ptr, v_ptr, o_ptr, qk_scale, N_CTX,
                        HEAD: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    head = tl.program_id(1)
    off = head.to(tl.int64) * N_CTX * HEAD
    rm = pid_m * BM + tl.arange(0, BM)
    rd = tl.arange(0, HEAD)
    q = tl.load(q_ptr + off + rm[:, None] * HEAD + rd[None, :])
    q = (q * qk_scale).to(tl.float16)  # fold softmax scale and log2(e) into q
    m = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l = tl.zeros([BM], dtype=tl.float32)
    o = tl.zeros([BM, HEAD], dtype=tl.float32)
    for n0 in range(0, N_CTX, BN):
        rn = n0 + tl.arange(0, BN)
        k = tl.load(k_ptr + off + rn[None, :] * HEAD + rd[:, None])
        qk = tl.dot(q, k)
        m_new = tl.maximum(m, tl.max(qk, 1))
        p = tl.exp2(qk - m_new[:, None])
        corr = tl.exp2(m - m_new)
        l = l * corr + tl.sum(p, 1)
        v = tl.load(v_ptr + off + rn[:, None] * HEAD + rd[None, :])
        o = o * corr[:, None] + tl.dot(p.to(tl.float16), v)
        m = m_new
    tl.store(o_ptr + off + rm[:, None] * HEAD + rd[None, :], (o / l[:, None]).to(tl.float16))


def custom_kernel(data):
    q, k, v = data
    bh, n_ctx, head = q.shape
    assert n_ctx % 128 == 0, "this kernel has no masking: seq must be a multiple of 128"
    o = torch.empty_like(q)
    scale = 1.4426950408889634 / math.sqrt(head)
    attention_kernel_v2[(n_ctx // 128, bh)](q, k, v, o, scale, n_ctx, HEAD=head, BM=128, BN=64,
                                            num_warps=8, num_stages=3)
    return o
