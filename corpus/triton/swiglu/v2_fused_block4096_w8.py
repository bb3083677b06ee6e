"""SwiGLU activation out = silu(gate) * up, fused, 4096 elements and 8 warps per program."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = swiglu(gate, up); gate: f32[8192, 2048]; up: f32[8192, 2048]; rtol = 1e-4; atol = 1e-5
@triton.jit
def swiglu_kernel(gate_ptr, up_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    g = tl.load(gate_ptr + offs, mask=mask)
    u = tl.load(up_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, g / (1.0 + tl.exp(-g)) * u, mask=mask)


def swiglu(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    gate, up = gate.contiguous(), up.contiguous()
    n = gate.numel()
    out = torch.empty_like(gate)
    BLOCK_SIZE = 4096
    swiglu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](gate, up, out, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return out
