import torch
import triton
import triton.language as tl


@triton.jit
def rotate_half_kernel(x_ptr, out_ptr, cos_ptr, sin_ptr, seq_len, n_heads, HALF: tl.constexpr):
    # one program per (token, head); cos/sin read from precomputed [seq, half] tables
    pid = tl.program_id(0)
    s = (pid // n_heads) % seq_len
    k = tl.arange(0, HALF)
    cos = tl.load(cos_ptr + s * HALF + k)
    sin = tl.load(sin_ptr + s * HALF + k)
    off = pid.to(tl.int64) * (2 * HALF)
    x1 = tl.load(x_ptr + off + k)
    x2 = tl.load(x_ptr + off + HALF + k)
    tl.store(out_ptr + off + k, x1 * cos - x2 * sin)
    tl.store(out_ptr + off + HALF + k, x2 * cos + x1 * sin)


def apply_rope(x, inv_freq):
    x = x.contiguous()
    B, S, H, D = x.shape
    pos = torch.arange(S, device=x.device, dtype=torch.float32)
    freqs = pos[:, None] * inv_freq[None, :]
    cos, sin = torch.cos(freqs), torch.sin(freqs)
    out = torch.empty_like(x)
    rotate_half_kernel[(B * S * H,)](x, out, cos, sin, S, H, HALF=D // 2, num_warps=2)
    return out
