"""Dropout, one program per 1024 elements, 4 warps: v0 with renamed values, the
random draw before the load and the division applied before the mask multiply."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = dropout(x, seed, p); x: f32[1 << 26] randn; seed = 1234; p = 0.1; rtol = 1e-5; atol = 1e-6
@triton.jit
def dropout_kernel(x_ptr, y_ptr, n, seed, p, BLOCK: tl.constexpr):
    block_start = tl.program_id(0) * BLOCK
    idx = block_start + tl.arange(0, BLOCK)
    in_bounds = idx < n
    rnd = tl.rand(seed, idx)
    vals = tl.load(x_ptr + idx, mask=in_bounds, other=0.0)
    out = vals / (1.0 - p) * (rnd > p).to(tl.float32)
    tl.store(y_ptr + idx, out, mask=in_bounds)


def dropout(x: torch.Tensor, seed: int, p: float) -> torch.Tensor:
    n = x.numel()
    y = torch.empty_like(x)
    BLOCK = 1024
    dropout_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, int(seed), float(p), BLOCK=BLOCK, num_warps=4)
    return y
