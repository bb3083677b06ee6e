import torch
import triton
import triton.language as tl


@triton.jit
def _residual_layerscale_dropout_fwd(x_ptr, y_ptr, gamma_ptr, keep_ptr, out_ptr,
                                     n_elements, n_cols, inv_keep_prob,
                                     BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    keep = tl.load(keep_ptr + offs, mask=mask)
    g = tl.load(gamma_ptr + offs % n_cols, mask=mask, other=0.0).to(tl.float32)
    branch = tl.where(keep, y * inv_keep_prob, 0.0)
    tl.store(out_ptr + offs, (x + g * branch).to(tl.bfloat16), mask=mask)


def residual_dropout_add(x, y, gamma, keep, p):
    assert x.shape == y.shape == keep.shape
    x, y, keep = x.contiguous(), y.contiguous(), keep.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    BLOCK_SIZE = 1024
    _residual_layerscale_dropout_fwd[(triton.cdiv(n, BLOCK_SIZE),)](
        x, y, gamma, keep, out, n, x.shape[-1], 1.0 / (1.0 - p),
        BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return out
