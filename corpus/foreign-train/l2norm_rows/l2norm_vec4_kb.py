import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kernel_code = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

constexpr int kThreads = 512;

// block per row, float4 loads, warp shuffles then one smem slot per warp
__global__ void __launch_bounds__(kThreads)
l2norm_vec4_kernel(const float4* __restrict__ x4, float4* __restrict__ y4, int cols4, float eps) {
    __shared__ float warp_partials[kThreads / 32];
    __shared__ float s_scale;
    const size_t base = (size_t)blockIdx.x * cols4;
    float sq = 0.f;
    for (int i = threadIdx.x; i < cols4; i += kThreads) {
        float4 v = x4[base + i];
        sq += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    for (int o = 16; o > 0; o >>= 1) sq += __shfl_down_sync(0xffffffffu, sq, o);
    if ((threadIdx.x & 31) == 0) warp_partials[threadIdx.x >> 5] = sq;
    __syncthreads();
    if (threadIdx.x < 32) {
        float t = threadIdx.x < kThreads / 32 ? warp_partials[threadIdx.x] : 0.f;
        for (int o = 16; o > 0; o >>= 1) t += __shfl_down_sync(0xffffffffu, t, o);
        if (threadIdx.x == 0) s_scale = 1.f / fmaxf(sqrtf(t), eps);
    }
    __syncthreads();
    const float s = s_scale;
    for (int i = threadIdx.x; i < cols4; i += kThreads) {
        float4 v = x4[base + i];
        v.x *= s; v.y *= s; v.z *= s; v.w *= s;
        y4[base + i] = v;
    }
}

torch::Tensor l2norm_vec4(torch::Tensor x, double eps) {
    TORCH_CHECK(x.size(1) % 4 == 0, "cols must be a multiple of 4");
    auto y = torch::empty_like(x);
    int rows = x.size(0);
    int cols4 = x.size(1) / 4;
    l2norm_vec4_kernel<<<rows, kThreads>>>(reinterpret_cast<const float4*>(x.data_ptr<float>()),
                                           reinterpret_cast<float4*>(y.data_ptr<float>()), cols4, (float)eps);
    return y;
}
"""

l2norm_vec4_mod = load_inline(
    name="l2norm_vec4_mod",
    cpp_sources=["torch::Tensor l2norm_vec4(torch::Tensor x, double eps);"],
    cuda_sources=[kernel_code],
    functions=["l2norm_vec4"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, eps=1e-12):
        super(ModelNew, self).__init__()
        self.eps = eps

    def forward(self, x):
        return l2norm_vec4_mod.l2norm_vec4(x.contiguous(), self.eps)


batch_size = 8192
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim).cuda()]


def get_init_inputs():
    return [1e-12]
