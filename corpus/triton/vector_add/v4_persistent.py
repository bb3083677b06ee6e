"""Elementwise vector add out = x + y with a persistent grid: a fixed number of
programs (4 per SM) loop over 2048-element tiles."""
import torch
import triton
import triton.language as tl

NUM_SMS = 132


# kforecast: wrapper = add(x, y); x: f32[1 << 24]; y: f32[1 << 24]; rtol = 1e-6; atol = 1e-6
@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr, NUM_PROGRAMS: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_tiles = tl.cdiv(n_elements, BLOCK_SIZE)
    for tile in tl.range(pid, num_tiles, NUM_PROGRAMS):
        offsets = tile * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask)
        y = tl.load(y_ptr + offsets, mask=mask)
        tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n_elements = out.numel()
    BLOCK_SIZE = 2048
    num_programs = min(NUM_SMS * 4, triton.cdiv(n_elements, BLOCK_SIZE))
    add_kernel[(num_programs,)](x, y, out, n_elements, BLOCK_SIZE=BLOCK_SIZE, NUM_PROGRAMS=num_programs,
                                num_warps=8)
    return out
