"""Scaled embedding lookup, 4 ids per program: a [4] vector of ids gathers a
[4, 1024] tile of table rows (masked to dim and n); 8 warps, 1/4 the programs."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = embedding(table, ids, scale); table: f32[50000, 1024]; ids: i64[16384] randint(0, 50000); scale = 32.0; rtol = 1e-6; atol = 1e-6
@triton.jit
def embedding_kernel(table_ptr, ids_ptr, out_ptr, n, dim, scale, IDS: tl.constexpr, BLOCK_D: tl.constexpr):
    idx = tl.program_id(0) * IDS + tl.arange(0, IDS)
    imask = idx < n
    rows = tl.load(ids_ptr + idx, mask=imask, other=0)
    cols = tl.arange(0, BLOCK_D)
    mask = imask[:, None] & (cols[None, :] < dim)
    v = tl.load(table_ptr + rows[:, None] * dim + cols[None, :], mask=mask, other=0.0)
    tl.store(out_ptr + idx[:, None] * dim + cols[None, :], v * scale, mask=mask)


def embedding(table: torch.Tensor, ids: torch.Tensor, scale: float) -> torch.Tensor:
    n = ids.numel()
    dim = table.shape[1]
    out = torch.empty((n, dim), device=table.device, dtype=table.dtype)
    IDS = 4
    embedding_kernel[(triton.cdiv(n, IDS),)](table, ids, out, n, dim, scale, IDS=IDS,
                                             BLOCK_D=triton.next_power_of_2(dim), num_warps=8)
    return out
