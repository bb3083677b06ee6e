"""torch's unfold gives a 4-d strided view; a Triton kernel copies it into a contiguous
tensor with the view's strides."""
import torch
import triton
import triton.language as tl


@triton.jit
def strided4d_copy(src_ptr, dst_ptr, n, d1, d2, d3,
                   s0, s1, s2, s3, BLOCK: tl.constexpr):
    idx = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    msk = idx < n
    i3 = idx % d3
    r = idx // d3
    i2 = r % d2
    r = r // d2
    i1 = r % d1
    i0 = r // d1
    v = tl.load(src_ptr + i0 * s0 + i1 * s1 + i2 * s2 + i3 * s3, mask=msk)
    tl.store(dst_ptr + idx, v, mask=msk)


def unfold_windows(x, size, step):
    view = x.unfold(-1, size, step)
    out = torch.empty(view.shape, device=x.device, dtype=x.dtype)
    n = out.numel()
    _, d1, d2, d3 = view.shape
    BLOCK = 2048
    strided4d_copy[(triton.cdiv(n, BLOCK),)](view, out, n, d1, d2, d3, *view.stride(),
                                             BLOCK=BLOCK, num_warps=8)
    return out
