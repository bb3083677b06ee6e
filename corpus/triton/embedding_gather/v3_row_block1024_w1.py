"""Scaled embedding lookup, one program per id copying the whole row (BLOCK_D =
1024, masked) with a single warp (32 floats per thread)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = embedding(table, ids, scale); table: f32[50000, 1024]; ids: i64[16384] randint(0, 50000); scale = 32.0; rtol = 1e-6; atol = 1e-6
@triton.jit
def embedding_kernel(table_ptr, ids_ptr, out_ptr, n, dim, scale, BLOCK_D: tl.constexpr):
    i = tl.program_id(0)
    row = tl.load(ids_ptr + i)
    cols = tl.arange(0, BLOCK_D)
    mask = cols < dim
    v = tl.load(table_ptr + row * dim + cols, mask=mask, other=0.0)
    tl.store(out_ptr + i * dim + cols, v * scale, mask=mask)


def embedding(table: torch.Tensor, ids: torch.Tensor, scale: float) -> torch.Tensor:
    n = ids.numel()
    dim = table.shape[1]
    out = torch.empty((n, dim), device=table.device, dtype=table.dtype)
    embedding_kernel[(n,)](table, ids, out, n, dim, scale, BLOCK_D=triton.next_power_of_2(dim), num_warps=1)
    return out
