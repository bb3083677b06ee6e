# GPU MODE-style submission: RMSNorm in two launches (row sums of squares, then scale).
import torch
import triton
import triton.language as tl


@triton.jit
def _sumsq_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        acc += v * v
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _scale_kernel(x_ptr, ss_ptr, w_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    inv = 1.0 / tl.sqrt(tl.load(ss_ptr + row) / n_cols + eps)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        v = tl.load(x_ptr + row * n_cols + cols, mask=m, other=0.0)
        w = tl.load(w_ptr + cols, mask=m, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, v * inv * w, mask=m)


def custom_kernel(data):
    x, w = data
    rows, cols = x.shape
    ss = torch.empty(rows, device=x.device, dtype=torch.float32)
    y = torch.empty_like(x)
    _sumsq_kernel[(rows,)](x, ss, cols, BLOCK=1024)
    _scale_kernel[(rows,)](x, ss, w, y, cols, 1e-6, BLOCK=1024)
    return y
