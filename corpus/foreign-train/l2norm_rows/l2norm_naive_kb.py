import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Row-wise L2 normalisation: every thread owns a whole row.
l2norm_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void l2norm_row_naive(const float* x, float* out, int rows, int cols, float eps) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        const float* xr = x + (long)row * cols;
        float ss = 0.0f;
        for (int j = 0; j < cols; j++) {
            ss += xr[j] * xr[j];
        }
        float scale = 1.0f / fmaxf(sqrtf(ss), eps);
        float* yr = out + (long)row * cols;
        for (int j = 0; j < cols; j++) {
            yr[j] = xr[j] * scale;
        }
    }
}

torch::Tensor l2norm_cuda(torch::Tensor x, double eps) {
    auto out = torch::empty_like(x);
    int rows = x.size(0);
    int cols = x.size(1);
    const int threads = 256;
    const int blocks = (rows + threads - 1) / threads;
    l2norm_row_naive<<<blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols, (float)eps);
    return out;
}
"""

l2norm_cpp_source = "torch::Tensor l2norm_cuda(torch::Tensor x, double eps);"

l2norm = load_inline(
    name="l2norm",
    cpp_sources=l2norm_cpp_source,
    cuda_sources=l2norm_source,
    functions=["l2norm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.eps = eps
        self.l2norm = l2norm

    def forward(self, x):
        return self.l2norm.l2norm_cuda(x.contiguous(), self.eps)


batch_size = 8192
dim = 4096


def get_inputs():
    return [torch.randn(batch_size, dim).cuda()]


def get_init_inputs():
    return [1e-12]
