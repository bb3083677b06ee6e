"""Depthwise 1-D convolution, one program per (channel, 1024 outputs), 4 warps:
the same as the unrolled constexpr-tap version with the row pointers and the
weight base hoisted into locals and the window bounds written as one unsigned
compare (near-tie)."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = conv1d_depthwise(x, w); x: f32[4096, 8192]; w: f32[4096, 7]; rtol = 1e-4; atol = 1e-5
@triton.jit
def conv1d_dw_kernel(x_ptr, w_ptr, y_ptr, C, L, K: tl.constexpr, PAD: tl.constexpr, BLOCK_L: tl.constexpr):
    chan = tl.program_id(0)
    base = tl.program_id(1) * BLOCK_L
    pos = base + tl.arange(0, BLOCK_L)
    src_row = x_ptr + chan * L
    dst_row = y_ptr + chan * L
    taps = w_ptr + chan * K
    out = tl.zeros([BLOCK_L], dtype=tl.float32)
    for k in tl.static_range(K):
        idx = pos + (k - PAD)
        inside = idx.to(tl.uint32) < L
        out += tl.load(taps + k) * tl.load(src_row + idx, mask=inside, other=0.0)
    tl.store(dst_row + pos, out, mask=pos < L)


def conv1d_depthwise(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    C, L = x.shape
    K = w.shape[1]
    y = torch.empty_like(x)
    BLOCK_L = 1024
    conv1d_dw_kernel[(C, triton.cdiv(L, BLOCK_L))](x, w, y, C, L, K=K, PAD=K // 2, BLOCK_L=BLOCK_L, num_warps=4)
    return y
