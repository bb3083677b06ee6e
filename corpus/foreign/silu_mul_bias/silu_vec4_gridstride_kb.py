import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_code = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__device__ __forceinline__ float silu_f(float v) { return v / (1.0f + expf(-v)); }

__global__ void silu_scale_bias_vec4(const float4* __restrict__ x, const float* __restrict__ bias,
                                     float4* __restrict__ out, float scale, int n4, int cols) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 v = x[i];
        int c = (i * 4) % cols;
        float4 r;
        r.x = silu_f(v.x) * scale + bias[c];
        r.y = silu_f(v.y) * scale + bias[c + 1];
        r.z = silu_f(v.z) * scale + bias[c + 2];
        r.w = silu_f(v.w) * scale + bias[c + 3];
        out[i] = r;
    }
}

torch::Tensor forward_vec4(torch::Tensor x, torch::Tensor bias, double scale) {
    TORCH_CHECK(x.size(-1) % 4 == 0, "columns must be a multiple of 4");
    auto out = torch::empty_like(x);
    int n4 = x.numel() / 4;
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, x.get_device());
    int blocks = sms * 8;
    silu_scale_bias_vec4<<<blocks, 256>>>(reinterpret_cast<const float4*>(x.data_ptr<float>()),
                                          bias.data_ptr<float>(), reinterpret_cast<float4*>(out.data_ptr<float>()),
                                          (float)scale, n4, (int)x.size(-1));
    return out;
}
"""

ext = load_inline(
    name="silu_vec4",
    cpp_sources="torch::Tensor forward_vec4(torch::Tensor x, torch::Tensor bias, double scale);",
    cuda_sources=cuda_code,
    functions=["forward_vec4"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, out_features, scale):
        super().__init__()
        g = torch.Generator().manual_seed(1234)
        self.bias = nn.Parameter(torch.randn(out_features, generator=g) * 0.1)
        self.scale = scale

    def forward(self, x):
        return ext.forward_vec4(x, self.bias, self.scale)


batch_size = 8192
out_features = 8192
scale = 0.75


def get_inputs():
    return [torch.randn(batch_size, out_features).cuda()]


def get_init_inputs():
    return [out_features, scale]
