import torch
import triton
import triton.language as tl


@triton.jit
def sliding_window_flat(src_ptr, dst_ptr, total, length, n_win, win, step, BLOCK: tl.constexpr):
    o = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    valid = o < total
    k = o % win
    w = (o // win) % n_win
    row = o // (win * n_win)
    v = tl.load(src_ptr + row * length + w * step + k, mask=valid)
    tl.store(dst_ptr + o, v, mask=valid)


def unfold_windows(x, size, step):
    x = x.contiguous()
    *lead, L = x.shape
    n_win = (L - size) // step + 1
    out = torch.empty(*lead, n_win, size, device=x.device, dtype=x.dtype)
    total = out.numel()
    BLOCK = 1024
    sliding_window_flat[(triton.cdiv(total, BLOCK),)](x, out, total, L, n_win, size, step,
                                                      BLOCK=BLOCK, num_warps=4)
    return out
