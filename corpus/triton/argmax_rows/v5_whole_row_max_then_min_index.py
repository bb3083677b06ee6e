"""Per-row argmax written as two reductions over the whole row in registers:
the row max, then the smallest column index holding it; one program per row,
8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = argmax_rows(x); x: f32[16384, 4096]; rtol = 1e-6; atol = 1e-6
@triton.jit
def argmax_rows_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
    row_max = tl.max(x, axis=0)
    idx = tl.min(tl.where(x == row_max, cols, BLOCK_SIZE), axis=0)
    tl.store(out_ptr + row, idx.to(tl.int64))


def argmax_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.int64)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    argmax_rows_kernel[(n_rows,)](x, out, n_rows, n_cols, x.stride(0), ROWS=1, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out
