"""Row gather on a 2-D grid: each program copies a [4 rows, 256 columns] tile,
axis 0 over row groups and axis 1 over column chunks; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = index_select_rows(table, idx); table: f32[40000, 768] randn; idx: i64[32768] randint(0, 40000); rtol = 0; atol = 0
@triton.jit
def index_select_kernel(table_ptr, idx_ptr, out_ptr, n_idx, dim, ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.program_id(1) * BLOCK_D + tl.arange(0, BLOCK_D)
    rmask = r < n_idx
    rows = tl.load(idx_ptr + r, mask=rmask, other=0)
    mask = rmask[:, None] & (cols[None, :] < dim)
    v = tl.load(table_ptr + rows[:, None] * dim + cols[None, :], mask=mask)
    tl.store(out_ptr + r[:, None].to(tl.int64) * dim + cols[None, :], v, mask=mask)


def index_select_rows(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_idx = idx.numel()
    dim = table.shape[1]
    out = torch.empty((n_idx, dim), device=table.device, dtype=table.dtype)
    ROWS, BLOCK_D = 4, 256
    grid = (triton.cdiv(n_idx, ROWS), triton.cdiv(dim, BLOCK_D))
    index_select_kernel[grid](table, idx, out, n_idx, dim, ROWS=ROWS, BLOCK_D=BLOCK_D, num_warps=4)
    return out
