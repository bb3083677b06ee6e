import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>

#define BLOCK 256

__global__ void rmsnorm_block_reduce_kernel(const float* __restrict__ x, const float* __restrict__ weight,
                                            float* __restrict__ y, int dim, float eps)
{
    __shared__ float sdata[BLOCK];
    const float* xr = x + (size_t)blockIdx.x * dim;
    float* yr = y + (size_t)blockIdx.x * dim;
    float acc = 0.f;
    for (int i = threadIdx.x; i < dim; i += BLOCK) {
        float v = xr[i];
        acc += v * v;
    }
    sdata[threadIdx.x] = acc;
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) sdata[threadIdx.x] += sdata[threadIdx.x + s];
        __syncthreads();
    }
    const float inv = rsqrtf(sdata[0] / dim + eps);
    for (int i = threadIdx.x; i < dim; i += BLOCK)
        yr[i] = xr[i] * inv * weight[i];
}

torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps)
{
    TORCH_CHECK(x.is_cuda() && x.is_contiguous(), "x must be a contiguous CUDA tensor");
    auto y = torch::empty_like(x);
    const int rows = x.size(0), dim = x.size(1);
    rmsnorm_block_reduce_kernel<<<rows, BLOCK>>>(x.data_ptr<float>(), weight.data_ptr<float>(),
                                                 y.data_ptr<float>(), dim, static_cast<float>(eps));
    return y;
}
"""

cpp_src = "torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps);"

rmsnorm_ext = load_inline(
    name="rmsnorm_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["rmsnorm_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.linspace(0.5, 1.5, hidden_size))
        self.eps = eps

    def forward(self, x):
        return rmsnorm_ext.rmsnorm_forward(x, self.weight, self.eps)


batch_size = 4096
hidden_size = 8192


def get_inputs():
    return [torch.randn(batch_size, hidden_size, device="cuda")]


def get_init_inputs():
    return [hidden_size]
