"""Depthwise 1-D convolution, 2-D programs: each program computes a [4 channels,
1024 outputs] tile, loading a [4] vector of weights per tap (unrolled constexpr
tap loop); 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = conv1d_depthwise(x, w); x: f32[4096, 8192]; w: f32[4096, 7]; rtol = 1e-4; atol = 1e-5
@triton.jit
def conv1d_dw_kernel(x_ptr, w_ptr, y_ptr, C, L, K: tl.constexpr, PAD: tl.constexpr, BLOCK_C: tl.constexpr,
                     BLOCK_L: tl.constexpr):
    chans = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    offs = tl.program_id(1) * BLOCK_L + tl.arange(0, BLOCK_L)
    cmask = chans < C
    rows = x_ptr + chans[:, None] * L
    acc = tl.zeros([BLOCK_C, BLOCK_L], dtype=tl.float32)
    for k in tl.static_range(K):
        wk = tl.load(w_ptr + chans * K + k, mask=cmask, other=0.0)
        src = offs + (k - PAD)
        m = cmask[:, None] & ((src >= 0) & (src < L))[None, :]
        acc += wk[:, None] * tl.load(rows + src[None, :], mask=m, other=0.0)
    tl.store(y_ptr + chans[:, None] * L + offs[None, :], acc, mask=cmask[:, None] & (offs < L)[None, :])


def conv1d_depthwise(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    C, L = x.shape
    K = w.shape[1]
    y = torch.empty_like(x)
    BLOCK_C, BLOCK_L = 4, 1024
    grid = (triton.cdiv(C, BLOCK_C), triton.cdiv(L, BLOCK_L))
    conv1d_dw_kernel[grid](x, w, y, C, L, K=K, PAD=K // 2, BLOCK_C=BLOCK_C, BLOCK_L=BLOCK_L, num_warps=8)
    return y
