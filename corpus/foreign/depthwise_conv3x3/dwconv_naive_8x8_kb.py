import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

src = """
#include <torch/extension.h>

// 2D launch: one thread per output pixel, 8x8 thread blocks, grid.z = batch * channels
__global__ void dwconv2d_blk8(const float* in, const float* w, float* out, int C, int H, int W) {
    int x = blockIdx.x * 8 + threadIdx.x;
    int y = blockIdx.y * 8 + threadIdx.y;
    int nc = blockIdx.z;
    if (x >= W || y >= H) return;
    const float* p = in + (size_t)nc * H * W;
    const float* k = w + (nc % C) * 9;
    float acc = 0.f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
            int yy = y + dy, xx = x + dx;
            if (yy >= 0 && yy < H && xx >= 0 && xx < W)
                acc += p[yy * W + xx] * k[(dy + 1) * 3 + (dx + 1)];
        }
    out[(size_t)nc * H * W + y * W + x] = acc;
}

torch::Tensor dwconv_blk8(torch::Tensor in, torch::Tensor w) {
    auto out = torch::empty_like(in);
    int N = in.size(0), C = in.size(1), H = in.size(2), W = in.size(3);
    dim3 block(8, 8);
    dim3 grid((W + 7) / 8, (H + 7) / 8, N * C);
    dwconv2d_blk8<<<grid, block>>>(in.data_ptr<float>(), w.data_ptr<float>(), out.data_ptr<float>(), C, H, W);
    return out;
}
"""

mod = load_inline(name="dwconv_blk8", cpp_sources="torch::Tensor dwconv_blk8(torch::Tensor in, torch::Tensor w);",
                  cuda_sources=src, functions=["dwconv_blk8"])


class ModelNew(nn.Module):
    def __init__(self, in_channels, kernel_size=3):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.weight = nn.Parameter(torch.randn(in_channels, 1, kernel_size, kernel_size, generator=g) / 3.0)

    def forward(self, x):
        return mod.dwconv_blk8(x, self.weight)


batch_size = 16
in_channels = 64
height = 256
width = 256


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width).cuda()]


def get_init_inputs():
    return [in_channels, 3]
