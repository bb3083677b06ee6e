"""Row-wise softmax over a 2-D tensor, one program per row."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = softmax(x); x: f32[8192, 4096]
@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols,
                   BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    row_in = in_ptr + row * in_row_stride
    row_out = out_ptr + row * out_row_stride

    # Pass 1: row max.
    m = tl.full((BLOCK_SIZE,), float("-inf"), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(row_in + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m = tl.maximum(m, x)
    row_max = tl.max(m, axis=0)

    # Pass 2: sum of exp(x - max).
    s = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(row_in + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        s += tl.exp(x - row_max)
    denom = tl.sum(s, axis=0)

    # Pass 3: normalise.
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(row_in + cols, mask=mask, other=float("-inf")).to(tl.float32)
        y = tl.exp(x - row_max) / denom
        tl.store(row_out + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    assert x.is_cuda and x.ndim == 2
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    softmax_kernel[(n_rows,)](
        out, x, x.stride(0), out.stride(0), n_cols,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=4, num_stages=1,
    )
    return out
