import torch
import triton
import triton.language as tl


@triton.jit
def _logsoftmax_online_fwd(X, Y, stride_x, stride_y, N, BLOCK_N: tl.constexpr):
    """One program per row: an online max / sum-of-exp pass, then a write pass."""
    pid = tl.program_id(0)
    x_row = X + pid.to(tl.int64) * stride_x
    y_row = Y + pid.to(tl.int64) * stride_y
    m = -float("inf")
    s = 0.0
    for off in range(0, N, BLOCK_N):
        idx = off + tl.arange(0, BLOCK_N)
        v = tl.load(x_row + idx, mask=idx < N, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(v, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(v - m_new), axis=0)
        m = m_new
    lse = m + tl.log(s)
    for off in range(0, N, BLOCK_N):
        idx = off + tl.arange(0, BLOCK_N)
        msk = idx < N
        v = tl.load(x_row + idx, mask=msk)
        tl.store(y_row + idx, v - lse, mask=msk)


def log_softmax_rows(x):
    rows, n = x.shape
    y = torch.empty_like(x)
    _logsoftmax_online_fwd[(rows,)](x, y, x.stride(0), y.stride(0), n, BLOCK_N=2048, num_warps=8)
    return y
