"""GELU backward (tanh approximation), persistent: a fixed grid of 528 programs (132 SMs x 4) walks 2048-element blocks with a grid stride, tanh via exp; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = gelu_backward(dy, x); dy: f32[67108864] randn; x: f32[67108864] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def gelu_backward_kernel(dy_ptr, x_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        dy = tl.load(dy_ptr + offs, mask=mask, other=0.0)
        x2 = x * x
        u = 0.7978845608028654 * x * (1.0 + 0.044715 * x2)
        t = 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)  # tanh(u)
        grad = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * 0.7978845608028654 * (1.0 + 0.134145 * x2)
        tl.store(dx_ptr + offs, dy * grad, mask=mask)


def gelu_backward(dy: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    dx = torch.empty_like(x)
    n = x.numel()
    BLOCK = 2048
    grid = (min(triton.cdiv(n, BLOCK), 132 * 4),)
    gelu_backward_kernel[grid](dy, x, dx, n, BLOCK=BLOCK, num_warps=8)
    return dx
