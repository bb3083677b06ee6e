import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kernel_src = """
#include <torch/extension.h>

__global__ void fused_act_fast(const float* x, const float* bias, float* out, float scale, int n, int cols) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float v = x[i];
    out[i] = __fdividef(v, 1.0f + __expf(-v)) * scale + bias[i % cols];
}

torch::Tensor act_forward(torch::Tensor x, torch::Tensor bias, double scale) {
    auto out = torch::empty_like(x);
    const int n = x.numel();
    fused_act_fast<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), bias.data_ptr<float>(), out.data_ptr<float>(),
                                             static_cast<float>(scale), n, x.size(1));
    return out;
}
"""

act = load_inline(name="act_fast", cpp_sources="torch::Tensor act_forward(torch::Tensor x, torch::Tensor bias, double scale);",
                  cuda_sources=kernel_src, functions=["act_forward"], extra_cuda_cflags=["--use_fast_math"])


class ModelNew(nn.Module):
    def __init__(self, out_features, scale):
        super().__init__()
        g = torch.Generator().manual_seed(1234)
        self.bias = nn.Parameter(torch.randn(out_features, generator=g) * 0.1)
        self.scale = scale

    def forward(self, x):
        return act.act_forward(x, self.bias, self.scale)


batch_size = 8192
out_features = 8192
scale = 0.75


def get_inputs():
    return [torch.randn(batch_size, out_features).cuda()]


def get_init_inputs():
    return [out_features, scale]
