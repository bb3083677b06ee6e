import torch
import triton
import triton.language as tl


@triton.jit
def _swiglu_fwd_kernel(xy_ptr, out_ptr, stride_xy, stride_out, H, BLOCK_N: tl.constexpr):
    # grid (rows, column blocks): no division per element
    row = tl.program_id(0).to(tl.int64)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < H
    gate = tl.load(xy_ptr + row * stride_xy + cols, mask=mask, other=0.0).to(tl.float32)
    up = tl.load(xy_ptr + row * stride_xy + H + cols, mask=mask, other=0.0).to(tl.float32)
    out = gate * tl.sigmoid(gate) * up
    tl.store(out_ptr + row * stride_out + cols, out.to(out_ptr.dtype.element_ty), mask=mask)


def swiglu(xy):
    H = xy.shape[-1] // 2
    xy2 = xy.reshape(-1, 2 * H)
    M = xy2.shape[0]
    out = torch.empty((M, H), dtype=xy.dtype, device=xy.device)
    BLOCK_N = min(2048, triton.next_power_of_2(H))
    num_warps = 8 if BLOCK_N >= 2048 else 4
    grid = (M, triton.cdiv(H, BLOCK_N))
    _swiglu_fwd_kernel[grid](xy2, out, xy2.stride(0), out.stride(0), H,
                             BLOCK_N=BLOCK_N, num_warps=num_warps)
    return out.view(*xy.shape[:-1], H)
