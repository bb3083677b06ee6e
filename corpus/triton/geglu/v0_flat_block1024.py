"""GeGLU out = gelu_tanh(a) * b where x[rows, 2 * cols] = [a | b]: flat 1-D programs
of 1024 output elements, row and column from offs // cols and offs % cols; tanh
via exp; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = geglu(x); x: f32[8192, 8192]; rtol = 1e-3; atol = 1e-4
@triton.jit
def geglu_kernel(x_ptr, out_ptr, n_elements, n_cols, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    row = offs // n_cols
    col = offs % n_cols
    a = tl.load(x_ptr + row * (2 * n_cols) + col, mask=mask)
    b = tl.load(x_ptr + row * (2 * n_cols) + n_cols + col, mask=mask)
    u = 0.7978845608028654 * (a + 0.044715 * a * a * a)
    u = tl.minimum(tl.maximum(u, -15.0), 15.0)
    t = 1.0 - 2.0 / (tl.exp(2.0 * u) + 1.0)
    tl.store(out_ptr + offs, 0.5 * a * (1.0 + t) * b, mask=mask)


def geglu(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n_rows, two_cols = x.shape
    n_cols = two_cols // 2
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    n = out.numel()
    BLOCK_SIZE = 1024
    geglu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, out, n, n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return out
