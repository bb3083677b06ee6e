"""Depthwise 1-D convolution as a [1024, 8] window gather: each program loads the
K (padded to 8) shifted copies of its 1024 inputs as one 2-D tile, multiplies by
the tap vector and reduces along the tap axis; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = conv1d_depthwise(x, w); x: f32[4096, 8192]; w: f32[4096, 7]; rtol = 1e-4; atol = 1e-5
@triton.jit
def conv1d_dw_kernel(x_ptr, w_ptr, y_ptr, C, L, K: tl.constexpr, PAD: tl.constexpr, BLOCK_L: tl.constexpr,
                     BLOCK_K: tl.constexpr):
    c = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK_L + tl.arange(0, BLOCK_L)
    taps = tl.arange(0, BLOCK_K)
    wv = tl.load(w_ptr + c * K + taps, mask=taps < K, other=0.0)
    src = offs[:, None] + taps[None, :] - PAD
    m = (taps[None, :] < K) & (src >= 0) & (src < L)
    win = tl.load(x_ptr + c * L + src, mask=m, other=0.0)
    acc = tl.sum(win * wv[None, :], axis=1)
    tl.store(y_ptr + c * L + offs, acc, mask=offs < L)


def conv1d_depthwise(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    C, L = x.shape
    K = w.shape[1]
    y = torch.empty_like(x)
    BLOCK_L = 1024
    conv1d_dw_kernel[(C, triton.cdiv(L, BLOCK_L))](x, w, y, C, L, K=K, PAD=K // 2, BLOCK_L=BLOCK_L,
                                                   BLOCK_K=triton.next_power_of_2(K), num_warps=4)
    return y
