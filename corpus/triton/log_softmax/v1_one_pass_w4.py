"""Row-wise log-softmax y = x - max - log(sum(exp(x - max))), one program per
row: the whole row (BLOCK_SIZE >= n_cols) is loaded once, reduced and written
from registers; 4 warps (64 values of an 8192-wide row per thread)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = log_softmax(x); x: f32[4096, 8192]; rtol = 1e-3; atol = 1e-4
@triton.jit
def log_softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_row_stride + cols, mask=mask, other=float("-inf"))
    shifted = x - tl.max(x, axis=0)
    lse = tl.log(tl.sum(tl.exp(shifted), axis=0))
    tl.store(out_ptr + row * out_row_stride + cols, shifted - lse, mask=mask)


def log_softmax(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    log_softmax_kernel[(n_rows,)](out, x, x.stride(0), out.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return out
