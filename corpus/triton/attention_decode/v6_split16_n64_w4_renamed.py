"""Single-query decode attention over a KV cache (q [BH, D], k/v [BH, S, D], fp16, fp32 math): the
16-way split-K version with renamed variables, V loaded after the scores are formed, the key offsets
precomputed as pointers and the chunk bounds written differently; same work, same launch."""
import math

import torch
import triton
import triton.language as tl


# kforecast: wrapper = attention_decode(q, k, v); q: f16[32, 128]; k: f16[32, 16384, 128]; v: f16[32, 16384, 128]; rtol = 1e-2; atol = 1e-4
@triton.jit
def attn_decode_kernel(q_ptr, k_ptr, v_ptr, m_ptr, l_ptr, acc_ptr, seq_len, chunk, sm_scale,
                       HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr, SPLITS: tl.constexpr):
    bh = tl.program_id(0)
    part = tl.program_id(1)
    dims = tl.arange(0, HEAD_DIM)
    keys = tl.arange(0, BLOCK_N)
    query = tl.load(q_ptr + bh * HEAD_DIM + dims).to(tl.float32) * sm_scale
    k_row = k_ptr + bh.to(tl.int64) * seq_len * HEAD_DIM
    v_row = v_ptr + bh.to(tl.int64) * seq_len * HEAD_DIM
    first = part * chunk
    last = tl.minimum(seq_len, first + chunk)
    run_max = tl.zeros([], dtype=tl.float32) - float("inf")
    run_sum = tl.zeros([], dtype=tl.float32)
    o_acc = tl.zeros([HEAD_DIM], dtype=tl.float32)
    for key0 in range(first, last, BLOCK_N):
        idx = key0 + keys
        valid = idx < last
        tile = idx[:, None] * HEAD_DIM + dims[None, :]
        kt = tl.load(k_row + tile, mask=valid[:, None], other=0.0).to(tl.float32)
        scores = tl.where(valid, tl.sum(kt * query[None, :], axis=1), float("-inf"))
        new_max = tl.maximum(tl.max(scores, axis=0), run_max)
        weights = tl.exp(scores - new_max)
        rescale = tl.exp(run_max - new_max)
        vt = tl.load(v_row + tile, mask=valid[:, None], other=0.0).to(tl.float32)
        o_acc = rescale * o_acc + tl.sum(weights[:, None] * vt, axis=0)
        run_sum = rescale * run_sum + tl.sum(weights, axis=0)
        run_max = new_max
    slot = bh * SPLITS + part
    tl.store(acc_ptr + slot * HEAD_DIM + dims, o_acc)
    tl.store(l_ptr + slot, run_sum)
    tl.store(m_ptr + slot, run_max)


@triton.jit
def attn_decode_combine_kernel(m_ptr, l_ptr, acc_ptr, o_ptr, HEAD_DIM: tl.constexpr, SPLITS: tl.constexpr):
    bh = tl.program_id(0)
    parts = tl.arange(0, SPLITS)
    dims = tl.arange(0, HEAD_DIM)
    maxes = tl.load(m_ptr + bh * SPLITS + parts)
    sums = tl.load(l_ptr + bh * SPLITS + parts)
    accs = tl.load(acc_ptr + (bh * SPLITS + parts[:, None]) * HEAD_DIM + dims[None, :])
    scale = tl.exp(maxes - tl.max(maxes, axis=0))
    total = tl.sum(sums * scale, axis=0)
    result = tl.sum(accs * scale[:, None], axis=0) / total
    tl.store(o_ptr + bh * HEAD_DIM + dims, result.to(o_ptr.dtype.element_ty))


def attention_decode(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    BH, S, D = k.shape
    assert q.shape == (BH, D) and k.is_contiguous() and v.is_contiguous() and q.is_contiguous()
    n_split, block_n = 16, 64
    per_split = triton.cdiv(S, n_split * block_n) * block_n
    out = torch.empty_like(q)
    maxes = torch.empty((BH, n_split), device=q.device, dtype=torch.float32)
    sums = torch.empty((BH, n_split), device=q.device, dtype=torch.float32)
    accs = torch.empty((BH, n_split, D), device=q.device, dtype=torch.float32)
    attn_decode_kernel[(BH, n_split)](q, k, v, maxes, sums, accs, S, per_split, 1.0 / math.sqrt(D),
                                      HEAD_DIM=D, BLOCK_N=block_n, SPLITS=n_split, num_warps=4, num_stages=2)
    attn_decode_combine_kernel[(BH,)](maxes, sums, accs, out, HEAD_DIM=D, SPLITS=n_split, num_warps=4)
    return out
