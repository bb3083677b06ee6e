"""Row gather, 64 output rows per program handled one after another: each step
loads one index as a scalar, then copies that row in a masked 1024-wide block, so
the index load and the row gather are serialised; 4 warps, 512 programs."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = index_select_rows(table, idx); table: f32[40000, 768] randn; idx: i64[32768] randint(0, 40000); rtol = 0; atol = 0
@triton.jit
def index_select_kernel(table_ptr, idx_ptr, out_ptr, n_idx, dim, ROWS: tl.constexpr, BLOCK_D: tl.constexpr):
    r0 = tl.program_id(0) * ROWS
    cols = tl.arange(0, BLOCK_D)
    mask = cols < dim
    for k in range(ROWS):
        i = r0 + k
        if i < n_idx:
            row = tl.load(idx_ptr + i)
            v = tl.load(table_ptr + row * dim + cols, mask=mask)
            tl.store(out_ptr + i.to(tl.int64) * dim + cols, v, mask=mask)


def index_select_rows(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_idx = idx.numel()
    dim = table.shape[1]
    out = torch.empty((n_idx, dim), device=table.device, dtype=table.dtype)
    ROWS = 64
    index_select_kernel[(triton.cdiv(n_idx, ROWS),)](table, idx, out, n_idx, dim, ROWS=ROWS,
                                                     BLOCK_D=triton.next_power_of_2(dim), num_warps=4)
    return out
