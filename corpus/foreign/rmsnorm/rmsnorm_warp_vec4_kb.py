import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

template <int THREADS>
__global__ void rmsnorm_warp_vec4(const float4* __restrict__ x, const float4* __restrict__ w,
                                  float4* __restrict__ y, int dim4, float inv_dim, float eps) {
    __shared__ float warp_sums[THREADS / 32];
    const size_t base = (size_t)blockIdx.x * dim4;
    float acc = 0.f;
    for (int i = threadIdx.x; i < dim4; i += THREADS) {
        float4 v = x[base + i];
        acc += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffff, acc, o);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = acc;
    __syncthreads();
    float total = 0.f;
    #pragma unroll
    for (int k = 0; k < THREADS / 32; ++k) total += warp_sums[k];
    const float r = rsqrtf(total * inv_dim + eps);
    for (int i = threadIdx.x; i < dim4; i += THREADS) {
        float4 v = x[base + i], g = w[i];
        y[base + i] = make_float4(v.x * r * g.x, v.y * r * g.y, v.z * r * g.z, v.w * r * g.w);
    }
}

torch::Tensor fused_rmsnorm(torch::Tensor x, torch::Tensor w, double eps) {
    TORCH_CHECK(x.size(1) % 4 == 0, "hidden size must be a multiple of 4");
    auto y = torch::empty_like(x);
    int rows = x.size(0), dim = x.size(1);
    rmsnorm_warp_vec4<512><<<rows, 512>>>(
        reinterpret_cast<const float4*>(x.data_ptr<float>()), reinterpret_cast<const float4*>(w.data_ptr<float>()),
        reinterpret_cast<float4*>(y.data_ptr<float>()), dim / 4, 1.0f / dim, (float)eps);
    return y;
}
"""

fused = load_inline(
    name="fused_rmsnorm",
    cpp_sources="torch::Tensor fused_rmsnorm(torch::Tensor x, torch::Tensor w, double eps);",
    cuda_sources=source,
    functions=["fused_rmsnorm"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.linspace(0.5, 1.5, hidden_size))
        self.eps = eps

    def forward(self, x):
        return fused.fused_rmsnorm(x.contiguous(), self.weight, self.eps)


batch_size = 4096
hidden_size = 8192


def get_inputs():
    return [torch.randn(batch_size, hidden_size).cuda()]


def get_init_inputs():
    return [hidden_size]
