import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>

#define TW 32
#define TH 8

// one block = one 32x8 output tile of one (n, c) plane; the 34x10 input patch is staged in shared memory
__global__ void dwconv3x3_tiled(const float* __restrict__ x, const float* __restrict__ wt, float* __restrict__ y,
                                int C, int H, int W) {
    __shared__ float patch[TH + 2][TW + 2];
    const int plane = blockIdx.z;
    const int c = plane % C;
    const float* xp = x + (size_t)plane * H * W;
    const int ox = blockIdx.x * TW, oy = blockIdx.y * TH;
    for (int i = threadIdx.y * TW + threadIdx.x; i < (TH + 2) * (TW + 2); i += TW * TH) {
        int py = i / (TW + 2), px = i % (TW + 2);
        int iy = oy + py - 1, ix = ox + px - 1;
        patch[py][px] = (iy >= 0 && iy < H && ix >= 0 && ix < W) ? xp[iy * W + ix] : 0.f;
    }
    float k[9];
#pragma unroll
    for (int i = 0; i < 9; ++i) k[i] = wt[c * 9 + i];
    __syncthreads();
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int gx = ox + tx, gy = oy + ty;
    if (gx >= W || gy >= H) return;
    float s = 0.f;
#pragma unroll
    for (int a = 0; a < 3; ++a)
#pragma unroll
        for (int b = 0; b < 3; ++b) s += patch[ty + a][tx + b] * k[a * 3 + b];
    y[(size_t)plane * H * W + gy * W + gx] = s;
}

torch::Tensor dwconv_forward(torch::Tensor x, torch::Tensor w) {
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    auto y = torch::empty_like(x);
    dim3 block(TW, TH);
    dim3 grid((W + TW - 1) / TW, (H + TH - 1) / TH, N * C);
    dwconv3x3_tiled<<<grid, block>>>(x.data_ptr<float>(), w.data_ptr<float>(), y.data_ptr<float>(), C, H, W);
    return y;
}
"""

ext = load_inline(name="dwconv_tiled", cpp_sources="torch::Tensor dwconv_forward(torch::Tensor x, torch::Tensor w);",
                  cuda_sources=source, functions=["dwconv_forward"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, in_channels, kernel_size=3):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.weight = nn.Parameter(torch.randn(in_channels, 1, kernel_size, kernel_size, generator=g) / 3.0)

    def forward(self, x):
        return ext.dwconv_forward(x, self.weight)


batch_size = 16
in_channels = 64
height = 256
width = 256


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width).cuda()]


def get_init_inputs():
    return [in_channels, 3]
