import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

fused_source = """
#include <torch/extension.h>

__global__ void fused_silu_scale_bias_kernel(const float* __restrict__ x, const float* __restrict__ bias,
                                             float* __restrict__ out, float scale, int n, int cols) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        float v = x[idx];
        float s = v / (1.0f + expf(-v));
        out[idx] = s * scale + bias[idx % cols];
    }
}

torch::Tensor fused_forward(torch::Tensor x, torch::Tensor bias, double scale) {
    auto out = torch::empty_like(x);
    int n = x.numel();
    int cols = x.size(1);
    fused_silu_scale_bias_kernel<<<(n + 511) / 512, 512>>>(x.data_ptr<float>(), bias.data_ptr<float>(),
                                                          out.data_ptr<float>(), (float)scale, n, cols);
    return out;
}
"""

fused = load_inline(
    name="fused_silu",
    cpp_sources="torch::Tensor fused_forward(torch::Tensor x, torch::Tensor bias, double scale);",
    cuda_sources=fused_source,
    functions=["fused_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, out_features, scale):
        super().__init__()
        g = torch.Generator().manual_seed(1234)
        self.bias = nn.Parameter(torch.randn(out_features, generator=g) * 0.1)
        self.scale = scale

    def forward(self, x):
        return fused.fused_forward(x.contiguous(), self.bias, self.scale)


batch_size = 8192
out_features = 8192
scale = 0.75


def get_inputs():
    return [torch.randn(batch_size, out_features).cuda()]


def get_init_inputs():
    return [out_features, scale]
