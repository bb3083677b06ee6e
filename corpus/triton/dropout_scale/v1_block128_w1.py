"""Dropout, naive first version: one program per 128 elements with a single warp
(512K tiny programs), per-element division by (1 - p)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = dropout(x, seed, p); x: f32[1 << 26] randn; seed = 1234; p = 0.1; rtol = 1e-5; atol = 1e-6
@triton.jit
def dropout_kernel(x_ptr, y_ptr, n, seed, p, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    keep = tl.rand(seed, offs) > p
    y = x * keep.to(tl.float32) / (1.0 - p)
    tl.store(y_ptr + offs, y, mask=mask)


def dropout(x: torch.Tensor, seed: int, p: float) -> torch.Tensor:
    n = x.numel()
    y = torch.empty_like(x)
    BLOCK = 128
    dropout_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, int(seed), float(p), BLOCK=BLOCK, num_warps=1)
    return y
