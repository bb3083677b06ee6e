import torch
import triton
import triton.language as tl


@triton.jit
def lsm_multi_row_kernel(X, Y, n_rows, n_cols, stride,
                         ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    # ROWS rows per program, online log-sum-exp over column chunks, then the write loop
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    rmask = rows < n_rows
    row_off = rows.to(tl.int64)[:, None] * stride
    m = tl.full([ROWS], -float("inf"), dtype=tl.float32)
    s = tl.zeros([ROWS], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        msk = rmask[:, None] & (cols < n_cols)[None, :]
        v = tl.load(X + row_off + cols[None, :], mask=msk, other=-float("inf"))
        m_new = tl.maximum(m, tl.max(v, axis=1))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(v - m_new[:, None]), axis=1)
        m = m_new
    lse = m + tl.log(s)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        msk = rmask[:, None] & (cols < n_cols)[None, :]
        v = tl.load(X + row_off + cols[None, :], mask=msk, other=0.0)
        tl.store(Y + row_off + cols[None, :], v - lse[:, None], mask=msk)


def log_softmax_rows(x):
    x = x.contiguous()
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    ROWS = 4
    lsm_multi_row_kernel[(triton.cdiv(n_rows, ROWS),)](x, y, n_rows, n_cols, x.stride(0),
                                                       ROWS=ROWS, BLOCK_N=1024, num_warps=8)
    return y
