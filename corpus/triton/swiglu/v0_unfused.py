"""SwiGLU activation out = silu(gate) * up, unfused: one kernel writes silu(gate)
to a temporary, a second kernel multiplies it by up (an extra round trip)."""
import torch
import triton
import triton.language as tl


@triton.jit
def silu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x / (1.0 + tl.exp(-x)), mask=mask)


# kforecast: wrapper = swiglu(gate, up); gate: f32[8192, 2048]; up: f32[8192, 2048]; rtol = 1e-4; atol = 1e-5
@triton.jit
def swiglu_kernel(a_ptr, b_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, a * b, mask=mask)


def swiglu(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    gate, up = gate.contiguous(), up.contiguous()
    n = gate.numel()
    tmp = torch.empty_like(gate)
    out = torch.empty_like(gate)
    BLOCK_SIZE = 1024
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    silu_kernel[grid](gate, tmp, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    swiglu_kernel[grid](tmp, up, out, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return out
