"""Fused residual-add RMSNorm (in place on the residual stream)."""
import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 2


@triton.jit
def rmsnorm_residual_inplace_kernel(
    x_ptr, residual_ptr, weight_ptr, out_ptr,
    x_row_stride, residual_row_stride, out_row_stride,
    n_cols, eps,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0)
    offsets = tl.arange(0, BLOCK_SIZE)
    in_bounds = offsets < n_cols
    x_row = x_ptr + row_idx * x_row_stride
    res_row = residual_ptr + row_idx * residual_row_stride
    hidden = tl.load(x_row + offsets, mask=in_bounds, other=0.0).to(tl.float32)
    hidden += tl.load(res_row + offsets, mask=in_bounds, other=0.0).to(tl.float32)
    tl.store(res_row + offsets, hidden.to(residual_ptr.dtype.element_ty), mask=in_bounds)
    mean_sq = tl.sum(hidden * hidden, axis=0) / n_cols
    gain = tl.load(weight_ptr + offsets, mask=in_bounds, other=0.0).to(tl.float32)
    normed = hidden * tl.rsqrt(mean_sq + eps) * gain
    tl.store(out_ptr + row_idx * out_row_stride + offsets, normed.to(out_ptr.dtype.element_ty),
             mask=in_bounds)


def _launch_config(n_cols):
    block = triton.next_power_of_2(n_cols)
    assert block <= MAX_FUSED_SIZE, f"hidden size {n_cols} too large for the fused kernel"
    warps = 32 if block >= 16384 else 16 if block >= 8192 else 8 if block >= 2048 else 4
    return block, warps


def fused_add_rmsnorm(x, residual, weight, eps=1e-6):
    """Returns the normalised hidden states; `residual` now holds x + residual."""
    assert x.shape == residual.shape and x.shape[-1] == weight.shape[0]
    assert residual.is_contiguous()
    hidden_size = x.shape[-1]
    x2d = x.reshape(-1, hidden_size)
    res2d = residual.view(-1, hidden_size)
    out = torch.empty_like(x2d)
    block, warps = _launch_config(hidden_size)
    rmsnorm_residual_inplace_kernel[(x2d.shape[0],)](
        x2d, res2d, weight, out,
        x2d.stride(0), res2d.stride(0), out.stride(0),
        hidden_size, eps,
        BLOCK_SIZE=block, num_warps=warps,
    )
    return out.view(x.shape)
