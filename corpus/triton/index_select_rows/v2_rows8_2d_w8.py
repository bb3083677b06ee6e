"""Row gather, 8 output rows per program: a vector of 8 indices gathers an
[8, 1024] tile of table rows (masked to dim and n_idx); 8 warps, 1/8 the programs."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = index_select_rows(table, idx); table: f32[40000, 768] randn; idx: i64[32768] randint(0, 40000); rtol = 0; atol = 0
@triton.jit
def index_select_kernel(table_ptr, idx_ptr, out_ptr, n_idx, dim, ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    r = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = r < n_idx
    rows = tl.load(idx_ptr + r, mask=rmask, other=0)
    cols = tl.arange(0, BLOCK_D)
    mask = rmask[:, None] & (cols[None, :] < dim)
    v = tl.load(table_ptr + rows[:, None] * dim + cols[None, :], mask=mask)
    tl.store(out_ptr + r[:, None].to(tl.int64) * dim + cols[None, :], v, mask=mask)


def index_select_rows(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_idx = idx.numel()
    dim = table.shape[1]
    out = torch.empty((n_idx, dim), device=table.device, dtype=table.dtype)
    ROWS = 8
    index_select_kernel[(triton.cdiv(n_idx, ROWS),)](table, idx, out, n_idx, dim, ROWS=ROWS,
                                                     BLOCK_D=triton.next_power_of_2(dim), num_warps=8)
    return out
