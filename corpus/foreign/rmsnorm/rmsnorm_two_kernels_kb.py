import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

// pass 1: each block reduces a slice of one row into partial sums
__global__ void sumsq_partial_kernel(const float* x, float* partial, int dim, int slices) {
    extern __shared__ float buf[];
    int row = blockIdx.y, slice = blockIdx.x;
    int len = (dim + slices - 1) / slices;
    int start = slice * len, stop = min(dim, start + len);
    float s = 0.f;
    for (int i = start + threadIdx.x; i < stop; i += blockDim.x) {
        float v = x[(size_t)row * dim + i];
        s += v * v;
    }
    buf[threadIdx.x] = s;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) buf[threadIdx.x] += buf[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[row * slices + slice] = buf[0];
}

// pass 2: every element reads its row's partial sums and scales itself
__global__ void apply_rms_kernel(const float* x, const float* partial, const float* w, float* y,
                                 int dim, int slices, float eps) {
    int row = blockIdx.y;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= dim) return;
    float ss = 0.f;
    for (int k = 0; k < slices; ++k) ss += partial[row * slices + k];
    float r = rsqrtf(ss / dim + eps);
    y[(size_t)row * dim + i] = x[(size_t)row * dim + i] * r * w[i];
}

torch::Tensor rmsnorm_two_pass(torch::Tensor x, torch::Tensor w, double eps) {
    const int rows = x.size(0), dim = x.size(1);
    const int slices = 4, threads = 256;
    auto partial = torch::empty({rows, slices}, x.options());
    auto y = torch::empty_like(x);
    sumsq_partial_kernel<<<dim3(slices, rows), threads, threads * sizeof(float)>>>(
        x.data_ptr<float>(), partial.data_ptr<float>(), dim, slices);
    apply_rms_kernel<<<dim3((dim + threads - 1) / threads, rows), threads>>>(
        x.data_ptr<float>(), partial.data_ptr<float>(), w.data_ptr<float>(), y.data_ptr<float>(), dim, slices,
        (float)eps);
    return y;
}
"""

cpp_source = "torch::Tensor rmsnorm_two_pass(torch::Tensor x, torch::Tensor w, double eps);"

module = load_inline(name="rmsnorm_two_pass", cpp_sources=cpp_source, cuda_sources=cuda_source,
                     functions=["rmsnorm_two_pass"], verbose=False)


class ModelNew(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.linspace(0.5, 1.5, hidden_size))
        self.eps = eps

    def forward(self, x):
        return module.rmsnorm_two_pass(x, self.weight, self.eps)


batch_size = 4096
hidden_size = 8192


def get_inputs():
    return [torch.randn(batch_size, hidden_size).cuda()]


def get_init_inputs():
    return [hidden_size]
