"""The [H, S, S] bias table is built with torch ops; a Triton kernel adds it to every batch."""
import torch
import triton
import triton.language as tl


@triton.jit
def add_head_bias(x_ptr, bias_ptr, out_ptr, n_heads, seq_len,
                  stride_xb, stride_xh, stride_xm,
                  stride_bh, stride_bm,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_bh = tl.program_id(2)
    b = (pid_bh // n_heads).to(tl.int64)
    h = pid_bh % n_heads
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm < seq_len)[:, None] & (rn < seq_len)[None, :]
    x_off = b * stride_xb + h * stride_xh + rm[:, None] * stride_xm + rn[None, :]
    bias = tl.load(bias_ptr + h * stride_bh + rm[:, None] * stride_bm + rn[None, :], mask=mask)
    tl.store(out_ptr + x_off, tl.load(x_ptr + x_off, mask=mask) + bias, mask=mask)


def alibi_bias(slopes, seq_len):
    pos = torch.arange(seq_len, device=slopes.device)
    rel = (pos[None, :] - pos[:, None]).to(torch.float32)
    return (slopes[:, None, None] * rel[None]).contiguous()


def alibi_add(scores, slopes):
    scores = scores.contiguous()
    B, H, S, _ = scores.shape
    bias = alibi_bias(slopes, S)
    out = torch.empty_like(scores)
    grid = (triton.cdiv(S, 32), triton.cdiv(S, 128), B * H)
    add_head_bias[grid](scores, bias, out, H, S,
                        scores.stride(0), scores.stride(1), scores.stride(2),
                        bias.stride(0), bias.stride(1),
                        BLOCK_M=32, BLOCK_N=128, num_warps=8)
    return out
