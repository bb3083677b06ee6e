import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rmsnorm_cuda_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void rms_norm_rowwise(const float* x, const float* w, float* out, int rows, int dim, float eps) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* xr = x + (long)row * dim;
    float ss = 0.0f;
    for (int i = 0; i < dim; i++) ss += xr[i] * xr[i];
    float r = rsqrtf(ss / dim + eps);
    for (int i = 0; i < dim; i++) out[(long)row * dim + i] = xr[i] * r * w[i];
}

torch::Tensor rms_norm_cuda(torch::Tensor x, torch::Tensor w, double eps) {
    auto out = torch::empty_like(x);
    int rows = x.size(0);
    int dim = x.size(1);
    int threads = 256;
    int blocks = (rows + threads - 1) / threads;
    rms_norm_rowwise<<<blocks, threads>>>(x.data_ptr<float>(), w.data_ptr<float>(), out.data_ptr<float>(), rows, dim, (float)eps);
    return out;
}
"""

rmsnorm_cpp_source = "torch::Tensor rms_norm_cuda(torch::Tensor x, torch::Tensor w, double eps);"

rms_norm = load_inline(
    name="rms_norm",
    cpp_sources=rmsnorm_cpp_source,
    cuda_sources=rmsnorm_cuda_source,
    functions=["rms_norm_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, hidden_size: int, eps: float = 1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.linspace(0.5, 1.5, hidden_size))
        self.eps = eps
        self.rms_norm = rms_norm

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.rms_norm.rms_norm_cuda(x.contiguous(), self.weight, self.eps)


batch_size = 4096
hidden_size = 8192


def get_inputs():
    return [torch.randn(batch_size, hidden_size).cuda()]


def get_init_inputs():
    return [hidden_size]
