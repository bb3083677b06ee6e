"""Dropout, one program per 1024 elements, 4 warps: the scale 1 / (1 - p) is computed
once per program and kept elements are multiplied by it (tl.where) instead of divided."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = dropout(x, seed, p); x: f32[1 << 26] randn; seed = 1234; p = 0.1; rtol = 1e-5; atol = 1e-6
@triton.jit
def dropout_kernel(x_ptr, y_ptr, n, seed, p, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    scale = 1.0 / (1.0 - p)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    keep = tl.rand(seed, offs) > p
    y = tl.where(keep, x * scale, 0.0)
    tl.store(y_ptr + offs, y, mask=mask)


def dropout(x: torch.Tensor, seed: int, p: float) -> torch.Tensor:
    n = x.numel()
    y = torch.empty_like(x)
    BLOCK = 1024
    dropout_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, int(seed), float(p), BLOCK=BLOCK, num_warps=4)
    return y
