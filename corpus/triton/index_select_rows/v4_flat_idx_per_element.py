"""Row gather over the flat output, 1024 elements per program: row and column by
division and modulo, and the index re-loaded for every element (a gather of
repeated addresses) before the table gather; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = index_select_rows(table, idx); table: f32[40000, 768] randn; idx: i64[32768] randint(0, 40000); rtol = 0; atol = 0
@triton.jit
def index_select_kernel(table_ptr, idx_ptr, out_ptr, n_idx, dim, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_idx * dim
    i = offs // dim
    c = offs % dim
    rows = tl.load(idx_ptr + i, mask=mask, other=0)
    v = tl.load(table_ptr + rows * dim + c, mask=mask)
    tl.store(out_ptr + offs, v, mask=mask)


def index_select_rows(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_idx = idx.numel()
    dim = table.shape[1]
    out = torch.empty((n_idx, dim), device=table.device, dtype=table.dtype)
    BLOCK = 1024
    index_select_kernel[(triton.cdiv(n_idx * dim, BLOCK),)](table, idx, out, n_idx, dim, BLOCK=BLOCK, num_warps=4)
    return out
