import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_sources = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// pass 1: inverse norm of every row (block per row, shared-memory tree)
__global__ void row_inv_norm_kernel(const float* __restrict__ x, float* __restrict__ inv_norm,
                                    int cols, float eps) {
    extern __shared__ float partial[];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += xr[c] * xr[c];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) inv_norm[blockIdx.x] = 1.0f / fmaxf(sqrtf(partial[0]), eps);
}

// pass 2: elementwise scale over the flat tensor
__global__ void scale_rows_kernel(const float* __restrict__ x, const float* __restrict__ inv_norm,
                                  float* __restrict__ y, long n, int cols) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * inv_norm[i / cols];
}

torch::Tensor normalize_rows(torch::Tensor x, double eps) {
    const int rows = x.size(0);
    const int cols = x.size(1);
    auto inv = torch::empty({rows}, x.options());
    auto y = torch::empty_like(x);
    const int threads = 256;
    row_inv_norm_kernel<<<rows, threads, threads * sizeof(float)>>>(x.data_ptr<float>(), inv.data_ptr<float>(), cols, (float)eps);
    const long n = x.numel();
    const int blocks = (int)((n + threads - 1) / threads);
    scale_rows_kernel<<<blocks, threads>>>(x.data_ptr<float>(), inv.data_ptr<float>(), y.data_ptr<float>(), n, cols);
    return y;
}
"""

cpp_sources = "torch::Tensor normalize_rows(torch::Tensor x, double eps);"

normalize_rows_ext = load_inline(
    name="normalize_rows_ext",
    cpp_sources=cpp_sources,
    cuda_sources=cuda_sources,
    functions=["normalize_rows"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        return normalize_rows_ext.normalize_rows(x.contiguous(), self.eps)


batch_size = 8192
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim).cuda()]


def get_init_inputs():
    return [1e-12]
