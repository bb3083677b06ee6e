"""Dropout with a persistent grid: 132 SMs x 8 programs loop over 1024-element
blocks with a grid stride (same global offsets into tl.rand); 4 warps."""
import torch
import triton
import triton.language as tl

NUM_SMS = 132  # H100 SXM


# kforecast: wrapper = dropout(x, seed, p); x: f32[1 << 26] randn; seed = 1234; p = 0.1; rtol = 1e-5; atol = 1e-6
@triton.jit
def dropout_kernel(x_ptr, y_ptr, n, seed, p, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        keep = tl.rand(seed, offs) > p
        y = x * keep.to(tl.float32) / (1.0 - p)
        tl.store(y_ptr + offs, y, mask=mask)


def dropout(x: torch.Tensor, seed: int, p: float) -> torch.Tensor:
    n = x.numel()
    y = torch.empty_like(x)
    BLOCK = 1024
    grid = (min(triton.cdiv(n, BLOCK), NUM_SMS * 8),)
    dropout_kernel[grid](x, y, n, int(seed), float(p), BLOCK=BLOCK, num_warps=4)
    return y
