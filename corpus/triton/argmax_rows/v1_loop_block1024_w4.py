"""Per-row argmax, one program per row, looping over the row in chunks of 1024
with a running max and index per lane (strictly-greater update keeps the first
occurrence), then one max and one min-index reduction; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = argmax_rows(x); x: f32[16384, 4096]; rtol = 1e-6; atol = 1e-6
@triton.jit
def argmax_rows_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    best = tl.full([BLOCK_SIZE], float("-inf"), tl.float32)
    best_idx = tl.zeros([BLOCK_SIZE], dtype=tl.int32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
        take = x > best
        best = tl.where(take, x, best)
        best_idx = tl.where(take, cols, best_idx)
    row_max = tl.max(best, axis=0)
    idx = tl.min(tl.where(best == row_max, best_idx, n_cols), axis=0)
    tl.store(out_ptr + row, idx.to(tl.int64))


def argmax_rows(x: torch.Tensor) -> torch.Tensor:
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows,), device=x.device, dtype=torch.int64)
    argmax_rows_kernel[(n_rows,)](x, out, n_rows, n_cols, x.stride(0), ROWS=1, BLOCK_SIZE=1024, num_warps=4)
    return out
