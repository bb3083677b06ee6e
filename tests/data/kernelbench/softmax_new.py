# A KernelBench-style candidate (ours): ModelNew with its CUDA in load_inline, and no
# get_inputs(): the harness runs it on the problem's.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>

__global__ void row_softmax(const float* x, float* y, int rows, int cols) {
    int r = blockIdx.x;
    if (r >= rows) return;
    float m = -1e30f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, x[r * cols + c]);
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(x[r * cols + c] - m);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[r * cols + c] = expf(x[r * cols + c] - m) / s;
}

torch::Tensor softmax_cuda(torch::Tensor x) {
    auto rows = x.size(0);
    auto cols = x.size(1);
    auto y = torch::empty_like(x);
    row_softmax<<<rows, 256>>>(x.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
    return y;
}
"""

softmax = load_inline(
    name="softmax",
    cpp_sources="torch::Tensor softmax_cuda(torch::Tensor x);",
    cuda_sources=cuda_source,
    functions=["softmax_cuda"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return softmax.softmax_cuda(x)
