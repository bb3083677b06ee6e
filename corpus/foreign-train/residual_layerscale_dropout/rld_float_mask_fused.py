import torch
import triton
import triton.language as tl


@triton.jit
def residual_scaled_mask_kernel(x_ptr, y_ptr, gamma_ptr, m_ptr, out_ptr, n_elements, n_cols,
                                BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    drop_scale = tl.load(m_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    g = tl.load(gamma_ptr + offs % n_cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (x + g * (drop_scale * y)).to(tl.bfloat16), mask=mask)


def residual_dropout_add(x, y, gamma, keep, p):
    # the mask is turned into the dropout scale (0 or 1/(1-p)) by torch first
    scale_mask = keep.to(torch.float32).mul_(1.0 / (1.0 - p))
    out = torch.empty_like(x)
    n = x.numel()
    BLOCK_SIZE = 1024
    residual_scaled_mask_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, y, gamma, scale_mask, out, n,
                                                              x.shape[-1], BLOCK_SIZE=BLOCK_SIZE)
    return out
