"""Row-wise log-softmax with the online algorithm in tiny chunks of 32 with a
single warp: a running max and rescaled running sum per lane, then a second loop
writes x - max - log(sum); one program per row (little parallelism per row)."""
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
    s = tl.zeros([BLOCK_SIZE], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
        m_new = tl.maximum(m, x)
        # lanes that have seen nothing yet keep s = 0 (avoid inf - inf)
        scale = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        s = s * scale + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == float("-inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    offset = row_max + tl.log(total)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, x - offset, mask=mask)


def log_softmax(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    log_softmax_kernel[(n_rows,)](out, x, x.stride(0), out.stride(0), n_cols, BLOCK_SIZE=32, num_warps=1)
    return out
