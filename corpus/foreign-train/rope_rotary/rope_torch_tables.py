"""Rotary embedding: cos/sin tables built with torch ops, a Triton kernel that rotates
a group of heads of one token per program."""
import torch
import triton
import triton.language as tl


@triton.jit
def rope_tables_kernel(x_ptr, out_ptr, cos_ptr, sin_ptr,
                       seq_len, n_heads,
                       stride_b, stride_s, stride_h,
                       HALF: tl.constexpr, HEADS_PER_PROG: tl.constexpr):
    pid_tok = tl.program_id(0)  # b * seq_len + s
    pid_h = tl.program_id(1)
    b = pid_tok // seq_len
    s = pid_tok % seq_len
    heads = pid_h * HEADS_PER_PROG + tl.arange(0, HEADS_PER_PROG)
    d = tl.arange(0, HALF)
    hmask = (heads < n_heads)[:, None]
    cos = tl.load(cos_ptr + s * HALF + d)[None, :]
    sin = tl.load(sin_ptr + s * HALF + d)[None, :]
    base = b.to(tl.int64) * stride_b + s.to(tl.int64) * stride_s + heads[:, None] * stride_h
    x1 = tl.load(x_ptr + base + d[None, :], mask=hmask, other=0.0)
    x2 = tl.load(x_ptr + base + HALF + d[None, :], mask=hmask, other=0.0)
    tl.store(out_ptr + base + d[None, :], x1 * cos - x2 * sin, mask=hmask)
    tl.store(out_ptr + base + HALF + d[None, :], x2 * cos + x1 * sin, mask=hmask)


def rope_cache(seq_len, inv_freq):
    t = torch.arange(seq_len, device=inv_freq.device, dtype=torch.float32)
    freqs = t[:, None] * inv_freq[None, :]
    return freqs.cos().contiguous(), freqs.sin().contiguous()


def apply_rope(x, inv_freq):
    x = x.contiguous()
    batch, seq_len, n_heads, head_dim = x.shape
    cos, sin = rope_cache(seq_len, inv_freq)
    out = torch.empty_like(x)
    HPP = 8
    grid = (batch * seq_len, triton.cdiv(n_heads, HPP))
    rope_tables_kernel[grid](x, out, cos, sin, seq_len, n_heads,
                             x.stride(0), x.stride(1), x.stride(2),
                             HALF=head_dim // 2, HEADS_PER_PROG=HPP, num_warps=4)
    return out
