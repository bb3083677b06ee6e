import torch
import triton
import triton.language as tl


@triton.jit
def alibi_row_kernel(x_ptr, y_ptr, slope_ptr, n_heads, seq_len,
                     sxb, sxh, sxi, sxj, syb, syh, syi, syj,
                     BLOCK: tl.constexpr):
    # one program per score row (b, h, i)
    row = tl.program_id(0)
    i = row % seq_len
    bh = row // seq_len
    h = bh % n_heads
    b = (bh // n_heads).to(tl.int64)
    j = tl.arange(0, BLOCK)
    m = j < seq_len
    x = tl.load(x_ptr + b * sxb + h * sxh + i * sxi + j * sxj, mask=m)
    y = x + tl.load(slope_ptr + h) * (j - i).to(tl.float32)
    tl.store(y_ptr + b * syb + h * syh + i * syi + j * syj, y, mask=m)


def alibi_add(scores, slopes):
    B, H, S, _ = scores.shape
    out = torch.empty_like(scores)
    BLOCK = triton.next_power_of_2(S)
    alibi_row_kernel[(B * H * S,)](scores, out, slopes, H, S,
                                   *scores.stride(), *out.stride(),
                                   BLOCK=BLOCK, num_warps=4 if BLOCK <= 2048 else 8)
    return out
