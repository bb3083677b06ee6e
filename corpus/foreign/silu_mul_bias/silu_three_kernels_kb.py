import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = """
#include <torch/extension.h>

__global__ void silu_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] / (1.0f + expf(-x[i]));
}

__global__ void scale_kernel(float* y, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] * s;
}

__global__ void add_bias_kernel(float* y, const float* b, int n, int cols) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = y[i] + b[i % cols];
}

torch::Tensor silu_scale_bias(torch::Tensor x, torch::Tensor bias, double scale) {
    auto y = torch::empty_like(x);
    int n = x.numel();
    int cols = x.size(-1);
    const int block_size = 256;
    const int num_blocks = (n + block_size - 1) / block_size;
    silu_kernel<<<num_blocks, block_size>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    scale_kernel<<<num_blocks, block_size>>>(y.data_ptr<float>(), (float)scale, n);
    add_bias_kernel<<<num_blocks, block_size>>>(y.data_ptr<float>(), bias.data_ptr<float>(), n, cols);
    return y;
}
"""

cpp_source = "torch::Tensor silu_scale_bias(torch::Tensor x, torch::Tensor bias, double scale);"

silu_scale_bias = load_inline(
    name="silu_scale_bias",
    cpp_sources=cpp_source,
    cuda_sources=source,
    functions=["silu_scale_bias"],
    verbose=True,
)


class ModelNew(nn.Module):
    def __init__(self, out_features, scale):
        super().__init__()
        g = torch.Generator().manual_seed(1234)
        self.bias = nn.Parameter(torch.randn(out_features, generator=g) * 0.1)
        self.scale = scale

    def forward(self, x):
        return silu_scale_bias.silu_scale_bias(x, self.bias, self.scale)


batch_size = 8192
out_features = 8192
scale = 0.75


def get_inputs():
    return [torch.randn(batch_size, out_features).cuda()]


def get_init_inputs():
    return [out_features, scale]
