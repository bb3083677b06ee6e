import torch
import triton
import triton.language as tl


@triton.jit
def log_softmax_row_kernel(in_ptr, out_ptr, in_stride, out_stride, n_cols,
                           BLOCK_SIZE: tl.constexpr):
    # the whole row sits in registers: one read, one write
    row_idx = tl.program_id(0)
    col = tl.arange(0, BLOCK_SIZE)
    mask = col < n_cols
    row = tl.load(in_ptr + row_idx.to(tl.int64) * in_stride + col, mask=mask, other=-float("inf"))
    shifted = row - tl.max(row, axis=0)
    denom = tl.sum(tl.exp(shifted), axis=0)
    out = shifted - tl.log(denom)
    tl.store(out_ptr + row_idx.to(tl.int64) * out_stride + col, out, mask=mask)


def log_softmax_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 4
    if BLOCK_SIZE >= 2048:
        num_warps = 8
    if BLOCK_SIZE >= 4096:
        num_warps = 16
    y = torch.empty_like(x)
    log_softmax_row_kernel[(n_rows,)](x, y, x.stride(0), y.stride(0), n_cols,
                                      BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return y
