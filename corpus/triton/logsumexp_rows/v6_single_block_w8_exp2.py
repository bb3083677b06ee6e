"""logsumexp of each row, one program per row holding the whole row, written with
exp2/log2 and a log2(e) scale instead of exp/log; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = logsumexp_rows(x); x: f32[16384, 4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def logsumexp_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
    m = tl.max(x, axis=0)
    LOG2E: tl.constexpr = 1.4426950408889634
    LN2: tl.constexpr = 0.6931471805599453
    s = tl.sum(tl.exp2((x - m) * LOG2E), axis=0)
    tl.store(out_ptr + row, m + tl.log2(s) * LN2)


def logsumexp_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    logsumexp_kernel[(n_rows,)](x, out, x.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out
