"""Per-row argmax, each program handles 4 whole rows as a 4 x 4096 tile reduced
along the columns with tl.argmax (a quarter as many programs); 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = argmax_rows(x); x: f32[16384, 4096]; rtol = 1e-6; atol = 1e-6
@triton.jit
def argmax_rows_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=float("-inf"))
    idx = tl.argmax(x, axis=1, tie_break_left=True)
    tl.store(out_ptr + rows, idx.to(tl.int64), mask=rows < n_rows)


def argmax_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.int64)
    ROWS = 4
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    argmax_rows_kernel[(triton.cdiv(n_rows, ROWS),)](x, out, n_rows, n_cols, x.stride(0), ROWS=ROWS,
                                                      BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out
