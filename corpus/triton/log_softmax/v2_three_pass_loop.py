"""Row-wise log-softmax for rows of any length: three loops over the row in
chunks of 1024 (max, sum of exp, write x - max - log(sum)), one program per
row, 4 warps (x read three times)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = log_softmax(x); x: f32[4096, 8192]; rtol = 1e-3; atol = 1e-4
@triton.jit
def log_softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = in_ptr + row * in_row_stride
    y_row = out_ptr + row * out_row_stride
    m = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        m = tl.maximum(m, tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")))
    row_max = tl.max(m, axis=0)
    s = tl.zeros([BLOCK_SIZE], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
        s += tl.exp(x - row_max)
    offset = row_max + tl.log(tl.sum(s, axis=0))
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, x - offset, mask=mask)


def log_softmax(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    log_softmax_kernel[(n_rows,)](out, x, x.stride(0), out.stride(0), n_cols, BLOCK_SIZE=1024, num_warps=4)
    return out
