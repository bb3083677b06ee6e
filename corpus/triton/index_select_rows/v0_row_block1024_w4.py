"""Row gather out[i, :] = table[idx[i], :]: one program per output row copies the
whole row in one masked 1024-wide block (dim = 768); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = index_select_rows(table, idx); table: f32[40000, 768] randn; idx: i64[32768] randint(0, 40000); rtol = 0; atol = 0
@triton.jit
def index_select_kernel(table_ptr, idx_ptr, out_ptr, n_idx, dim, BLOCK_D: tl.constexpr):
    i = tl.program_id(0)
    row = tl.load(idx_ptr + i)
    cols = tl.arange(0, BLOCK_D)
    mask = cols < dim
    v = tl.load(table_ptr + row * dim + cols, mask=mask)
    tl.store(out_ptr + i * dim + cols, v, mask=mask)


def index_select_rows(table: torch.Tensor, idx: torch.Tensor) -> torch.Tensor:
    n_idx = idx.numel()
    dim = table.shape[1]
    out = torch.empty((n_idx, dim), device=table.device, dtype=table.dtype)
    index_select_kernel[(n_idx,)](table, idx, out, n_idx, dim, BLOCK_D=triton.next_power_of_2(dim), num_warps=4)
    return out
