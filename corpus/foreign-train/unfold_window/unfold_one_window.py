import torch
import triton
import triton.language as tl


@triton.jit
def copy_one_window(x_ptr, y_ptr, n_win, win, step, stride_row, BLOCK_K: tl.constexpr):
    # one program (one warp) per window
    pid = tl.program_id(0)
    row = pid // n_win
    w = pid % n_win
    k = tl.arange(0, BLOCK_K)
    m = k < win
    v = tl.load(x_ptr + row.to(tl.int64) * stride_row + w * step + k, mask=m)
    tl.store(y_ptr + pid.to(tl.int64) * win + k, v, mask=m)


def unfold_windows(x, size, step):
    x = x.contiguous()
    B, C, L = x.shape
    n_win = (L - size) // step + 1
    y = torch.empty(B, C, n_win, size, device=x.device, dtype=x.dtype)
    copy_one_window[(B * C * n_win,)](x, y, n_win, size, step, L,
                                      BLOCK_K=triton.next_power_of_2(size), num_warps=1)
    return y
