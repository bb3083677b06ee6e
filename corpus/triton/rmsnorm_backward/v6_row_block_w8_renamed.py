"""RMSNorm input gradient, one program per row with the whole row in registers, 8
warps: v0 with renamed values, reordered loads and rsqrt instead of 1/sqrt."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = rmsnorm_backward(x, w, dy); x: f32[8192, 4096]; w: f32[4096]; dy: f32[8192, 4096]; rtol = 1e-3; atol = 1e-4
@triton.jit
def rmsnorm_bwd_kernel(x_ptr, w_ptr, dy_ptr, dx_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    offs = tl.arange(0, BLOCK_SIZE)
    in_row = offs < n_cols
    base = tl.program_id(0) * stride
    weight = tl.load(w_ptr + offs, mask=in_row, other=0.0)
    grad = tl.load(dy_ptr + base + offs, mask=in_row, other=0.0) * weight
    xv = tl.load(x_ptr + base + offs, mask=in_row, other=0.0)
    inv_rms = tl.rsqrt(tl.sum(xv * xv, axis=0) / n_cols + eps)
    proj = tl.sum(grad * xv, axis=0) / n_cols * inv_rms * inv_rms
    tl.store(dx_ptr + base + offs, (grad - xv * proj) * inv_rms, mask=in_row)


def rmsnorm_backward(x: torch.Tensor, w: torch.Tensor, dy: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    n_rows, n_cols = x.shape
    dx = torch.empty_like(x)
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    rmsnorm_bwd_kernel[(n_rows,)](x, w, dy, dx, x.stride(0), n_cols, eps, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return dx
