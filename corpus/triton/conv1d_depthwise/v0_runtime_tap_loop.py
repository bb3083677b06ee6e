"""Depthwise 1-D convolution (K taps, zero padding K//2), one program per
(channel, 1024 outputs): a runtime loop over the taps re-loads the tap weight and a
shifted window of x every iteration; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = conv1d_depthwise(x, w); x: f32[4096, 8192]; w: f32[4096, 7]; rtol = 1e-4; atol = 1e-5
@triton.jit
def conv1d_dw_kernel(x_ptr, w_ptr, y_ptr, C, L, K, PAD, BLOCK_L: tl.constexpr):
    c = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK_L + tl.arange(0, BLOCK_L)
    acc = tl.zeros([BLOCK_L], dtype=tl.float32)
    for k in range(0, K):
        wk = tl.load(w_ptr + c * K + k)
        src = offs + k - PAD
        xv = tl.load(x_ptr + c * L + src, mask=(src >= 0) & (src < L), other=0.0)
        acc += wk * xv
    tl.store(y_ptr + c * L + offs, acc, mask=offs < L)


def conv1d_depthwise(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    C, L = x.shape
    K = w.shape[1]
    y = torch.empty_like(x)
    BLOCK_L = 1024
    conv1d_dw_kernel[(C, triton.cdiv(L, BLOCK_L))](x, w, y, C, L, K, K // 2, BLOCK_L=BLOCK_L, num_warps=4)
    return y
