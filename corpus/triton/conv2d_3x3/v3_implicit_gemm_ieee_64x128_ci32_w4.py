"""3x3 convolution, stride 1, padding 1, NCHW, as an implicit GEMM: one program per (n, 64 couts,
1 x 128 pixel tile), K = 9 taps x cin walked in one loop of (tap, 32-cin chunk) steps, each step a
full-precision fp32 tl.dot of a [64 x 32] weight tile and a [32 x 128] shifted input tile; 4 warps."""
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
    x_n = x_ptr + n * C_IN * H * W
    n_ci = tl.cdiv(C_IN, BLOCK_CI)
    acc = tl.zeros([BLOCK_CO, BLOCK_H * BLOCK_W], dtype=tl.float32)
    # K = 9 taps x C_IN, walked tap by tap, cin in chunks of BLOCK_CI inside a tap
    for kk in range(0, 9 * n_ci):
        tap = kk // n_ci
        ci = (kk % n_ci) * BLOCK_CI + tl.arange(0, BLOCK_CI)
        ci_ok = ci < C_IN
        ih = oh + (tap // 3 - 1)
        iw = ow + (tap % 3 - 1)
        p_ok = (ih >= 0) & (ih < H) & (iw >= 0) & (iw < W)
        a = tl.load(w_ptr + co[:, None] * (C_IN * 9) + ci[None, :] * 9 + tap,
                    mask=co_ok[:, None] & ci_ok[None, :], other=0.0)
        b = tl.load(x_n + ci[:, None] * (H * W) + (ih * W + iw)[None, :],
                    mask=ci_ok[:, None] & p_ok[None, :], other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    y_off = (n * C_OUT + co[:, None]) * H * W + (oh * W + ow)[None, :]
    tl.store(y_ptr + y_off, acc, mask=co_ok[:, None] & ((oh < H) & (ow < W))[None, :])


def conv2d_3x3(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    weight = weight.contiguous()
    N, C_IN, H, W = x.shape
    C_OUT = weight.shape[0]
    y = torch.empty((N, C_OUT, H, W), device=x.device, dtype=torch.float32)
    BLOCK_CO, BLOCK_H, BLOCK_W, BLOCK_CI = 64, 1, 128, 32
    grid = (triton.cdiv(H, BLOCK_H) * triton.cdiv(W, BLOCK_W), triton.cdiv(C_OUT, BLOCK_CO), N)
    conv2d_3x3_kernel[grid](x, weight, y, C_IN, C_OUT, H, W, BLOCK_CO=BLOCK_CO, BLOCK_H=BLOCK_H,
                            BLOCK_W=BLOCK_W, BLOCK_CI=BLOCK_CI, num_warps=4)
    return y
