"""Causally masked softmax, one program per row with the whole row in registers, but
the load is masked to columns <= r % S (masked columns are never read, they load as
-inf), max / exp / sum / normalise, the full row stored; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = masked_softmax(x); x: f32[32768, 1024]; rtol = 1e-3; atol = 1e-6
@triton.jit
def masked_softmax_kernel(x_ptr, y_ptr, n_rows, n_cols, seq_len, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    q_pos = row % seq_len
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    # only the columns up to the diagonal are read; the rest become -inf without a load
    x = tl.load(x_ptr + row * stride + cols, mask=mask & (cols <= q_pos), other=float("-inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * stride + cols, y, mask=mask)


def masked_softmax(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    y = torch.empty_like(x)
    masked_softmax_kernel[(n_rows,)](x, y, n_rows, n_cols, n_cols, x.stride(0), BLOCK=triton.next_power_of_2(n_cols),
                                     num_warps=4)
    return y
