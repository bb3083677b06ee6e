"""Direct 3x3 convolution, stride 1, padding 1, NCHW, register-blocked over output channels:
one program per (n, 16 couts, 8 x 32 pixel tile); every x tap tile is loaded once and
multiplied into all 16 channels as an outer product with a 16-vector of weights; 4 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = conv2d_3x3(x, weight); x: f32[8, 64, 128, 128] randn; weight: f32[64, 64, 3, 3] randn; rtol = 1e-2; atol = 1e-1
@triton.jit
def conv2d_3x3_kernel(x_ptr, w_ptr, y_ptr, C_IN, C_OUT, H, W,
                      BLOCK_CO: tl.constexpr, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr, BLOCK_CI: tl.constexpr):
    pid_p = tl.program_id(0)
    pid_co = tl.program_id(1)
    n = tl.program_id(2)
    tiles_w = tl.cdiv(W, BLOCK_W)
    p = tl.arange(0, BLOCK_H * BLOCK_W)
    oh = (pid_p // tiles_w) * BLOCK_H + p // BLOCK_W
    ow = (pid_p % tiles_w) * BLOCK_W + p % BLOCK_W
    co = pid_co * BLOCK_CO + tl.arange(0, BLOCK_CO)
    co_ok = co < C_OUT
    acc = tl.zeros([BLOCK_CO, BLOCK_H * BLOCK_W], dtype=tl.float32)
    for ci in range(0, C_IN):
        x_plane = x_ptr + (n * C_IN + ci) * H * W
        w_col = w_ptr + co * (C_IN * 9) + ci * 9
        for kh in tl.static_range(3):
            ih = oh + kh - 1
            ih_ok = (ih >= 0) & (ih < H)
            for kw in tl.static_range(3):
                iw = ow + kw - 1
                xv = tl.load(x_plane + ih * W + iw, mask=ih_ok & (iw >= 0) & (iw < W), other=0.0)
                wv = tl.load(w_col + kh * 3 + kw, mask=co_ok, other=0.0)
                acc += wv[:, None] * xv[None, :]
    y_off = (n * C_OUT + co[:, None]) * H * W + (oh * W + ow)[None, :]
    tl.store(y_ptr + y_off, acc, mask=co_ok[:, None] & ((oh < H) & (ow < W))[None, :])


def conv2d_3x3(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    weight = weight.contiguous()
    N, C_IN, H, W = x.shape
    C_OUT = weight.shape[0]
    y = torch.empty((N, C_OUT, H, W), device=x.device, dtype=torch.float32)
    BLOCK_CO, BLOCK_H, BLOCK_W, BLOCK_CI = 16, 8, 32, 1
    grid = (triton.cdiv(H, BLOCK_H) * triton.cdiv(W, BLOCK_W), triton.cdiv(C_OUT, BLOCK_CO), N)
    conv2d_3x3_kernel[grid](x, weight, y, C_IN, C_OUT, H, W, BLOCK_CO=BLOCK_CO, BLOCK_H=BLOCK_H,
                            BLOCK_W=BLOCK_W, BLOCK_CI=BLOCK_CI, num_warps=4)
    return y
