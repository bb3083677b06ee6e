"""GeGLU out = gelu_tanh(a) * b where x[rows, 2 * cols] = [a | b]: a 2-D grid of
16 x 256 output tiles, 4 warps; the tiled version with the b pointers derived
from the a pointers, the activation split into named steps, and renamed offsets."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = geglu(x); x: f32[8192, 8192]; rtol = 1e-3; atol = 1e-4
@triton.jit
def geglu_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_x, stride_o, BLOCK_M: tl.constexpr,
                 BLOCK_N: tl.constexpr):
    r = (tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M))[:, None]
    c = (tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N))[None, :]
    inside = (r < n_rows) & (c < n_cols)
    a_ptrs = x_ptr + r * stride_x + c
    b_ptrs = a_ptrs + n_cols
    gate = tl.load(a_ptrs, mask=inside)
    up = tl.load(b_ptrs, mask=inside)
    inner = 0.7978845608028654 * (gate + 0.044715 * gate * gate * gate)
    inner = tl.minimum(tl.maximum(inner, -15.0), 15.0)
    th = 1.0 - 2.0 / (tl.exp(2.0 * inner) + 1.0)
    tl.store(out_ptr + r * stride_o + c, 0.5 * gate * (1.0 + th) * up, mask=inside)


def geglu(x: torch.Tensor) -> torch.Tensor:
    n_rows, two_cols = x.shape
    n_cols = two_cols // 2
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    BLOCK_M, BLOCK_N = 16, 256
    grid = (triton.cdiv(n_rows, BLOCK_M), triton.cdiv(n_cols, BLOCK_N))
    geglu_kernel[grid](x, out, n_rows, n_cols, x.stride(0), out.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                       num_warps=4)
    return out
