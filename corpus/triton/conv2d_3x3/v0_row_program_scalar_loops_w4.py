"""Direct 3x3 convolution, stride 1, padding 1, NCHW, naive: one program per (n, cout, output
row) with a BLOCK_W vector over the row, runtime loops over cin and the 3 x 3 taps, one scalar
weight load and one masked row load per tap; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = conv2d_3x3(x, weight); x: f32[8, 64, 128, 128] randn; weight: f32[64, 64, 3, 3] randn; rtol = 1e-2; atol = 1e-1
@triton.jit
def conv2d_3x3_kernel(x_ptr, w_ptr, y_ptr, C_IN, C_OUT, H, W,
                      BLOCK_CO: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr, BLOCK_CI: tl.constexpr):
    oh = tl.program_id(0)
    co = tl.program_id(1)
    n = tl.program_id(2)
    ow = tl.arange(0, BLOCK_W)
    acc = tl.zeros([BLOCK_W], dtype=tl.float32)
    for ci in range(0, C_IN):
        x_plane = x_ptr + (n * C_IN + ci) * H * W
        w_taps = w_ptr + (co * C_IN + ci) * 9
        for kh in range(0, 3):
            ih = oh + kh - 1
            row_ok = (ih >= 0) & (ih < H)
            for kw in range(0, 3):
                iw = ow + kw - 1
                wv = tl.load(w_taps + kh * 3 + kw)
                xv = tl.load(x_plane + ih * W + iw, mask=row_ok & (iw >= 0) & (iw < W), other=0.0)
                acc += wv * xv
    tl.store(y_ptr + ((n * C_OUT + co) * H + oh) * W + ow, acc, mask=ow < W)


def conv2d_3x3(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    weight = weight.contiguous()
    N, C_IN, H, W = x.shape
    C_OUT = weight.shape[0]
    y = torch.empty((N, C_OUT, H, W), device=x.device, dtype=torch.float32)
    grid = (H, C_OUT, N)
    conv2d_3x3_kernel[grid](x, weight, y, C_IN, C_OUT, H, W, BLOCK_CO=1, BLOCK_H=1,
                            BLOCK_W=triton.next_power_of_2(W), BLOCK_CI=1, num_warps=4)
    return y
