"""Mean squared error: one program per 4096 elements, 8 warps, one tl.atomic_add per
program: the 4096/w8 version with b loaded first, the difference taken as b - a and
the partial scaled in a separate statement (near-tie)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = mse_loss(a, b); a: f32[33554432]; b: f32[33554432]; rtol = 1e-3; atol = 1e-4
@triton.jit
def mse_kernel(a_ptr, b_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    in_range = idx < n
    y = tl.load(b_ptr + idx, mask=in_range, other=0.0)
    x = tl.load(a_ptr + idx, mask=in_range, other=0.0)
    err = y - x
    partial = tl.sum(err * err, axis=0)
    partial = partial * inv_n
    tl.atomic_add(out_ptr, partial)


def mse_loss(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    n = a.numel()
    out = torch.zeros((1,), device=a.device, dtype=torch.float32)
    BLOCK = 4096
    mse_kernel[(triton.cdiv(n, BLOCK),)](a, b, out, n, 1.0 / n, BLOCK=BLOCK, num_warps=8)
    return out
