"""Causally masked softmax that skips the masked tail: the online max / sum loop runs
only over the chunks of 256 holding columns <= r % S, the write loop does the same,
and a last loop stores zeros over the rest of the row; one program per row, 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = masked_softmax(x); x: f32[32768, 1024]; rtol = 1e-3; atol = 1e-6
@triton.jit
def masked_softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, seq_len, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    q_pos = row % seq_len
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, q_pos + 1, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=(cols <= q_pos) & (cols < n_cols), other=float("-inf"))
        m_new = tl.maximum(m, x)
        # lanes that have seen nothing yet keep s = 0 (avoid inf - inf)
        scale = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        s = s * scale + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == float("-inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    inv = 1.0 / total
    for start in range(0, q_pos + 1, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=(cols <= q_pos) & mask, other=float("-inf"))
        tl.store(y_row + cols, tl.exp(x - row_max) * inv, mask=mask)
    # chunks entirely past the diagonal: zeros, nothing loaded
    tail = (q_pos + BLOCK) // BLOCK * BLOCK
    for start in range(tail, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        tl.store(y_row + cols, tl.zeros([BLOCK], tl.float32), mask=cols < n_cols)


def masked_softmax(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    masked_softmax_kernel[(n_rows,)](x, y, n_rows, n_cols, n_cols, x.stride(0), BLOCK=256, num_warps=4)
    return y
