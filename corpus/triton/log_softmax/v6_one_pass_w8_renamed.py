"""Row-wise log-softmax, one program per row, whole row in registers, 8 warps:
v0 with row base pointers, renamed variables and the log-sum-exp folded into
one offset subtracted from x."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = log_softmax(x); x: f32[4096, 8192]; rtol = 1e-3; atol = 1e-4
@triton.jit
def log_softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    src = in_ptr + pid * in_row_stride
    dst = out_ptr + pid * out_row_stride
    offs = tl.arange(0, BLOCK_SIZE)
    valid = offs < n_cols
    vals = tl.load(src + offs, mask=valid, other=float("-inf"))
    peak = tl.max(vals, axis=0)
    denom = tl.sum(tl.exp(vals - peak), axis=0)
    tl.store(dst + offs, vals - (peak + tl.log(denom)), mask=valid)


def log_softmax(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    log_softmax_kernel[(n_rows,)](out, x, x.stride(0), out.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out
