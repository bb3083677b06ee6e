"""Depthwise 3x3 convolution, padding 1, stride 1, plus bias: one program per (n, c) plane
(only 1024 programs) with the 9 weights and the bias hoisted into scalars before a loop
over the plane in 8 x 128 tiles; taps written out by hand; 8 warps."""
import torch
import triton
import triton.language as tl


# kforecast: wrapper = depthwise_conv2d(x, weight, bias); x: f32[8, 128, 128, 128] randn; weight: f32[128, 3, 3] randn; bias: f32[128] randn; rtol = 1e-4; atol = 1e-5
@triton.jit
def dwconv2d_kernel(x_ptr, w_ptr, b_ptr, y_ptr, NC, C, H, W, BLOCK_H: tl.constexpr, BLOCK_W: tl.constexpr):
    nc = tl.program_id(0)
    c = nc % C
    x_plane = x_ptr + nc * H * W
    y_plane = y_ptr + nc * H * W
    wb = w_ptr + c * 9
    w00 = tl.load(wb + 0)
    w01 = tl.load(wb + 1)
    w02 = tl.load(wb + 2)
    w10 = tl.load(wb + 3)
    w11 = tl.load(wb + 4)
    w12 = tl.load(wb + 5)
    w20 = tl.load(wb + 6)
    w21 = tl.load(wb + 7)
    w22 = tl.load(wb + 8)
    bias = tl.load(b_ptr + c)
    for row0 in range(0, H, BLOCK_H):
        oh = row0 + tl.arange(0, BLOCK_H)
        up = oh - 1
        dn = oh + 1
        up_ok = (up >= 0)[:, None]
        mid_ok = (oh < H)[:, None]
        dn_ok = (dn < H)[:, None]
        for col0 in range(0, W, BLOCK_W):
            ow = col0 + tl.arange(0, BLOCK_W)
            lf = ow - 1
            rt = ow + 1
            lf_ok = ((lf >= 0) & (lf < W))[None, :]
            md_ok = (ow < W)[None, :]
            rt_ok = (rt < W)[None, :]
            p_up = x_plane + up[:, None] * W
            p_md = x_plane + oh[:, None] * W
            p_dn = x_plane + dn[:, None] * W
            acc = w00 * tl.load(p_up + lf[None, :], mask=up_ok & lf_ok, other=0.0)
            acc += w01 * tl.load(p_up + ow[None, :], mask=up_ok & md_ok, other=0.0)
            acc += w02 * tl.load(p_up + rt[None, :], mask=up_ok & rt_ok, other=0.0)
            acc += w10 * tl.load(p_md + lf[None, :], mask=mid_ok & lf_ok, other=0.0)
            acc += w11 * tl.load(p_md + ow[None, :], mask=mid_ok & md_ok, other=0.0)
            acc += w12 * tl.load(p_md + rt[None, :], mask=mid_ok & rt_ok, other=0.0)
            acc += w20 * tl.load(p_dn + lf[None, :], mask=dn_ok & lf_ok, other=0.0)
            acc += w21 * tl.load(p_dn + ow[None, :], mask=dn_ok & md_ok, other=0.0)
            acc += w22 * tl.load(p_dn + rt[None, :], mask=dn_ok & rt_ok, other=0.0)
            tl.store(y_plane + oh[:, None] * W + ow[None, :], acc + bias, mask=mid_ok & md_ok)


def depthwise_conv2d(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    n, c, h, w = x.shape
    y = torch.empty_like(x)
    BLOCK_H, BLOCK_W = 8, 128
    grid = (n * c,)
    dwconv2d_kernel[grid](x, weight, bias, y, n * c, c, h, w, BLOCK_H=BLOCK_H, BLOCK_W=BLOCK_W, num_warps=8)
    return y
