"""Scaled embedding lookup, one program per id looping over the row in chunks of
256 floats; 2 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = embedding(table, ids, scale); table: f32[50000, 1024]; ids: i64[16384] randint(0, 50000); scale = 32.0; rtol = 1e-6; atol = 1e-6
@triton.jit
def embedding_kernel(table_ptr, ids_ptr, out_ptr, n, dim, scale, BLOCK_D: tl.constexpr):
    i = tl.program_id(0)
    row = tl.load(ids_ptr + i)
    src = table_ptr + row * dim
    dst = out_ptr + i * dim
    for start in range(0, dim, BLOCK_D):
        cols = start + tl.arange(0, BLOCK_D)
        mask = cols < dim
        v = tl.load(src + cols, mask=mask, other=0.0)
        tl.store(dst + cols, v * scale, mask=mask)


def embedding(table: torch.Tensor, ids: torch.Tensor, scale: float) -> torch.Tensor:
    n = ids.numel()
    dim = table.shape[1]
    out = torch.empty((n, dim), device=table.device, dtype=table.dtype)
    embedding_kernel[(n,)](table, ids, out, n, dim, scale, BLOCK_D=256, num_warps=2)
    return out
