"""S = scale * Q K^T per head (fp16 Q, K [H, S, 64], fp32 scores), first version: one program per
(query row, 128 keys, head) loads the query row and a [128, 64] key tile, upcasts to fp32 and
reduces the broadcast product over the head dim with tl.sum (no tl.dot); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = attention_scores(q, k, scale); q: f16[64, 512, 64] randn; k: f16[64, 512, 64] randn; scale = 0.125; rtol = 1e-3; atol = 1e-3
@triton.jit
def attention_scores_kernel(q_ptr, k_ptr, s_ptr, seq_q, seq_k, head_dim,
                            stride_qh, stride_qm, stride_kh, stride_kn, stride_sh, stride_sm, scale,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    # BLOCK_M is 1: one query row per program, BLOCK_N keys, the whole head dim at once.
    pid_n = tl.program_id(0)
    row = tl.program_id(1)
    head = tl.program_id(2)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    mask_n = offs_n < seq_k
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for k0 in range(0, head_dim, BLOCK_K):
        ks = k0 + offs_k
        mask_k = ks < head_dim
        qv = tl.load(q_ptr + head * stride_qh + row * stride_qm + ks, mask=mask_k, other=0.0).to(tl.float32)
        kv = tl.load(k_ptr + head * stride_kh + offs_n[:, None] * stride_kn + ks[None, :],
                     mask=mask_n[:, None] & mask_k[None, :], other=0.0).to(tl.float32)
        acc += tl.sum(kv * qv[None, :], axis=1)
    tl.store(s_ptr + head * stride_sh + row * stride_sm + offs_n, acc * scale, mask=mask_n)


def attention_scores(q: torch.Tensor, k: torch.Tensor, scale: float) -> torch.Tensor:
    q = q.contiguous()
    k = k.contiguous()
    H, Sq, D = q.shape
    _, Sk, _ = k.shape
    s = torch.empty((H, Sq, Sk), device=q.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, BLOCK_K = 1, 128, 64
    grid = (triton.cdiv(Sk, BLOCK_N), Sq, H)
    attention_scores_kernel[grid](q, k, s, Sq, Sk, D, q.stride(0), q.stride(1), k.stride(0), k.stride(1),
                                  s.stride(0), s.stride(1), scale,
                                  BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
                                  num_warps=4, num_stages=1)
    return s
