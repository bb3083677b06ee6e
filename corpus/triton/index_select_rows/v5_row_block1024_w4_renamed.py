"""Row gather, one program per output row, one masked 1024-wide block, 4 warps:
the first version with renamed variables, base pointers formed first and the
mask computed before the index load."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = index_select_rows(table, idx); table: f32[40000, 768] randn; idx: i64[32768] randint(0, 40000); rtol = 0; atol = 0
@triton.jit
def index_select_kernel(table_ptr, idx_ptr, out_ptr, n_idx, dim, BLOCK_D: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK_D)
    in_row = offs < dim
    src_row = tl.load(idx_ptr + pid)
    src = table_ptr + src_row * dim
    dst = out_ptr + pid * dim
    vals = tl.load(src + offs, mask=in_row)
    tl.store(dst + offs, vals, mask=in_row)


def index_select_rows(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_idx = idx.numel()
    dim = table.shape[1]
    out = torch.empty((n_idx, dim), device=table.device, dtype=table.dtype)
    BLOCK_D = triton.next_power_of_2(dim)
    index_select_kernel[(n_idx,)](table, idx, out, n_idx, dim, BLOCK_D=BLOCK_D, num_warps=4)
    return out
