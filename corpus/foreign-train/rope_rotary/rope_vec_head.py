import torch
import triton
import triton.language as tl


@triton.jit
def rope_fwd_head_kernel(x_ptr, y_ptr, freq_ptr, seq_len, n_heads, HALF: tl.constexpr):
    # one program per (token, head), the whole head vectorised, angles computed in-kernel
    pid = tl.program_id(0)
    pos = ((pid // n_heads) % seq_len).to(tl.float32)
    offs = tl.arange(0, HALF)
    ang = pos * tl.load(freq_ptr + offs)
    c = tl.cos(ang)
    s = tl.sin(ang)
    base = pid.to(tl.int64) * (2 * HALF)
    lo = tl.load(x_ptr + base + offs)
    hi = tl.load(x_ptr + base + HALF + offs)
    tl.store(y_ptr + base + offs, lo * c - hi * s)
    tl.store(y_ptr + base + HALF + offs, hi * c + lo * s)


def apply_rope(x: torch.Tensor, inv_freq: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    bsz, seqlen, nheads, hdim = x.shape
    y = torch.empty_like(x)
    rope_fwd_head_kernel[(bsz * seqlen * nheads,)](x, y, inv_freq, seqlen, nheads,
                                                   HALF=hdim // 2, num_warps=2)
    return y
