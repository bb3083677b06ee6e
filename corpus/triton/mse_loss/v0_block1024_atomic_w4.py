"""Mean squared error mean((a - b)^2) as a scalar: one program per 1024 elements
reduces its squared differences with tl.sum and adds sum / n to the zero-initialised
output with one tl.atomic_add (32K atomics on one address); 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = mse_loss(a, b); a: f32[33554432]; b: f32[33554432]; rtol = 1e-3; atol = 1e-4
@triton.jit
def mse_kernel(a_ptr, b_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    d = a - b
    tl.atomic_add(out_ptr, tl.sum(d * d, axis=0) * inv_n)


def mse_loss(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    n = a.numel()
    out = torch.zeros((1,), device=a.device, dtype=torch.float32)
    BLOCK = 1024
    mse_kernel[(triton.cdiv(n, BLOCK),)](a, b, out, n, 1.0 / n, BLOCK=BLOCK, num_warps=4)
    return out
