import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <torch/extension.h>

template <int ROWS>
__global__ void dwconv_register_rows(const float* __restrict__ x, const float* __restrict__ wt,
                                     float* __restrict__ y, int C, int H, int W) {
    const int plane = blockIdx.z;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row0 = blockIdx.y * ROWS;
    if (col >= W) return;
    const float* xp = x + (size_t)plane * H * W;
    float* yp = y + (size_t)plane * H * W;
    const float* k = wt + (plane % C) * 9;
    const float k0 = k[0], k1 = k[1], k2 = k[2], k3 = k[3], k4 = k[4], k5 = k[5], k6 = k[6], k7 = k[7], k8 = k[8];
    auto load3 = [&](int r, float& l, float& m, float& rr) {
        if (r < 0 || r >= H) { l = m = rr = 0.f; return; }
        const float* p = xp + (size_t)r * W + col;
        m = p[0];
        l = col > 0 ? p[-1] : 0.f;
        rr = col + 1 < W ? p[1] : 0.f;
    };
    float a0, a1, a2, b0, b1, b2, c0, c1, c2;
    load3(row0 - 1, a0, a1, a2);
    load3(row0, b0, b1, b2);
#pragma unroll
    for (int r = 0; r < ROWS; ++r) {
        const int row = row0 + r;
        if (row >= H) break;
        load3(row + 1, c0, c1, c2);
        yp[(size_t)row * W + col] = a0 * k0 + a1 * k1 + a2 * k2 + b0 * k3 + b1 * k4 + b2 * k5 + c0 * k6 + c1 * k7 + c2 * k8;
        a0 = b0; a1 = b1; a2 = b2;
        b0 = c0; b1 = c1; b2 = c2;
    }
}

torch::Tensor dwconv_rows(torch::Tensor x, torch::Tensor w) {
    const int N = x.size(0), C = x.size(1), H = x.size(2), W = x.size(3);
    auto y = torch::empty_like(x);
    constexpr int ROWS = 8;
    dim3 block(128);
    dim3 grid((W + 127) / 128, (H + ROWS - 1) / ROWS, N * C);
    dwconv_register_rows<ROWS><<<grid, block>>>(x.data_ptr<float>(), w.data_ptr<float>(), y.data_ptr<float>(), C, H, W);
    return y;
}
"""

dw = load_inline(name="dwconv_rows", cpp_sources="torch::Tensor dwconv_rows(torch::Tensor x, torch::Tensor w);",
                 cuda_sources=cuda_src, functions=["dwconv_rows"], extra_cuda_cflags=["-O3"])


class ModelNew(nn.Module):
    def __init__(self, in_channels, kernel_size=3):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.weight = nn.Parameter(torch.randn(in_channels, 1, kernel_size, kernel_size, generator=g) / 3.0)

    def forward(self, x):
        return dw.dwconv_rows(x.contiguous(), self.weight)


batch_size = 16
in_channels = 64
height = 256
width = 256


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width).cuda()]


def get_init_inputs():
    return [in_channels, 3]
