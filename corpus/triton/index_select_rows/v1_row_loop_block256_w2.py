"""Row gather, one program per output row looping over the columns in 256-wide
chunks (three full chunks for dim = 768, no idle lanes); 2 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = index_select_rows(table, idx); table: f32[40000, 768] randn; idx: i64[32768] randint(0, 40000); rtol = 0; atol = 0
@triton.jit
def index_select_kernel(table_ptr, idx_ptr, out_ptr, n_idx, dim, BLOCK_D: tl.constexpr):
    i = tl.program_id(0)
    row = tl.load(idx_ptr + i)
    src = table_ptr + row * dim
    dst = out_ptr + i.to(tl.int64) * dim
    for c0 in range(0, dim, BLOCK_D):
        cols = c0 + tl.arange(0, BLOCK_D)
        mask = cols < dim
        tl.store(dst + cols, tl.load(src + cols, mask=mask), mask=mask)


def index_select_rows(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_idx = idx.numel()
    dim = table.shape[1]
    out = torch.empty((n_idx, dim), device=table.device, dtype=table.dtype)
    index_select_kernel[(n_idx,)](table, idx, out, n_idx, dim, BLOCK_D=256, num_warps=2)
    return out
