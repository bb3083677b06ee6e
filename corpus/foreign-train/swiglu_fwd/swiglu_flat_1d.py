import torch
import triton
import triton.language as tl


@triton.jit
def _swiglu_fwd_kernel(xy_ptr, out_ptr, n_elements, H, BLOCK: tl.constexpr):
    # one flat index per output element; the gate and up halves of its row
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    row = offs // H
    col = offs % H
    gate = tl.load(xy_ptr + row * (2 * H) + col, mask=mask, other=0.0).to(tl.float32)
    up = tl.load(xy_ptr + row * (2 * H) + H + col, mask=mask, other=0.0).to(tl.float32)
    out = gate * tl.sigmoid(gate) * up
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


def swiglu(xy):
    assert xy.is_contiguous() and xy.shape[-1] % 2 == 0
    H = xy.shape[-1] // 2
    out = torch.empty((*xy.shape[:-1], H), dtype=xy.dtype, device=xy.device)
    n = out.numel()
    BLOCK = 1024
    _swiglu_fwd_kernel[(triton.cdiv(n, BLOCK),)](xy, out, n, H, BLOCK=BLOCK, num_warps=4)
    return out
