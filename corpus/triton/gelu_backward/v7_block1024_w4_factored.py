"""GELU backward (tanh approximation), 1024-element blocks, 4 warps, arithmetic reordered: constants folded and gelu' factored as 0.5 (1 + t) (1 + x (1 - t) du/dx)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = gelu_backward(dy, x); dy: f32[67108864] randn; x: f32[67108864] randn; rtol = 1e-3; atol = 1e-4
@triton.jit
def gelu_backward_kernel(dy_ptr, x_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    x2 = x * x
    u = x * (0.7978845608028654 + 0.035677408136300125 * x2)
    du = 0.7978845608028654 + 0.10703222440890038 * x2
    t = 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)  # tanh(u)
    grad = 0.5 * (1.0 + t) * (1.0 + x * (1.0 - t) * du)
    tl.store(dx_ptr + offs, grad * dy, mask=mask)


def gelu_backward(dy: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    dx = torch.empty_like(x)
    gelu_backward_kernel[(triton.cdiv(n, 1024),)](dy, x, dx, n, BLOCK=1024, num_warps=4)
    return dx
