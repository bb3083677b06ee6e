"""Same as the whole-row version (one program per row, the row in registers, 8 warps)
with renamed variables and the mean folded into a multiply by 1/cols."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = var_rows(x); x: f32[16384, 8192] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def var_rows_kernel(x_ptr, out_ptr, stride, n_rows, n_cols, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    offs = tl.arange(0, BLOCK_SIZE)
    in_row = offs < n_cols
    vals = tl.load(x_ptr + tl.program_id(0) * stride + offs, mask=in_row, other=0.0)
    mu = tl.sum(vals, axis=0) * (1.0 / n_cols)
    centered = tl.where(in_row, vals - mu, 0.0)
    sq_sum = tl.sum(centered * centered, axis=0)
    tl.store(out_ptr + tl.program_id(0), sq_sum / (n_cols - 1))


def var_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.float32)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    var_rows_kernel[(n_rows,)](x, out, x.stride(0), n_rows, n_cols, ROWS=1, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out
