"""SwiGLU activation out = silu(gate) * up: the Triton kernel computes silu(gate)
only, and the multiplication is left to PyTorch (two kernels, two round trips)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = swiglu(gate, up); gate: f32[8192, 2048]; up: f32[8192, 2048]; rtol = 1e-4; atol = 1e-5
@triton.jit
def swiglu_kernel(gate_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    g = tl.load(gate_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, g * tl.sigmoid(g), mask=mask)


def swiglu(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    gate = gate.contiguous()
    n = gate.numel()
    act = torch.empty_like(gate)
    BLOCK_SIZE = 2048
    swiglu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](gate, act, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return act * up
