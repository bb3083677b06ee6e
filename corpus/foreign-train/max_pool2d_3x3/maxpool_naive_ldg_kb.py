import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

pool_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// one thread per output, read-only cache loads, 128-thread blocks
__global__ void max_pool_3x3_fwd(const float* __restrict__ src, float* __restrict__ dst,
                                 int H, int W, int OH, int OW, int S, int P, int total) {
    const int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o < total) {
        const int x_out = o % OW;
        const int y_out = (o / OW) % OH;
        const int plane = o / (OW * OH);
        const float* base = src + (long)plane * H * W;
        const int y0 = y_out * S - P;
        const int x0 = x_out * S - P;
        float best = -INFINITY;
        #pragma unroll
        for (int dy = 0; dy < 3; ++dy) {
            const int yy = y0 + dy;
            #pragma unroll
            for (int dx = 0; dx < 3; ++dx) {
                const int xx = x0 + dx;
                if (yy >= 0 && yy < H && xx >= 0 && xx < W) best = fmaxf(best, __ldg(base + yy * W + xx));
            }
        }
        dst[o] = best;
    }
}

torch::Tensor max_pool_3x3(torch::Tensor src, int64_t S, int64_t P) {
    const int N = src.size(0), C = src.size(1), H = src.size(2), W = src.size(3);
    const int OH = (H + 2 * (int)P - 3) / (int)S + 1;
    const int OW = (W + 2 * (int)P - 3) / (int)S + 1;
    auto dst = torch::empty({N, C, OH, OW}, src.options());
    const int total = N * C * OH * OW;
    const int threads = 128;
    max_pool_3x3_fwd<<<(total + threads - 1) / threads, threads>>>(src.data_ptr<float>(), dst.data_ptr<float>(),
                                                                   H, W, OH, OW, (int)S, (int)P, total);
    return dst;
}
"""

max_pool_mod = load_inline(
    name="max_pool_mod",
    cpp_sources="torch::Tensor max_pool_3x3(torch::Tensor src, int64_t S, int64_t P);",
    cuda_sources=pool_src,
    functions=["max_pool_3x3"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size, stride, padding):
        super(ModelNew, self).__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def forward(self, x):
        return max_pool_mod.max_pool_3x3(x.contiguous(), self.stride, self.padding)


def get_inputs():
    return [torch.randn(16, 64, 256, 256).cuda()]


def get_init_inputs():
    return [3, 2, 1]
