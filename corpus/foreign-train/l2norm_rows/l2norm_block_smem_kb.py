import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define BLOCK_SIZE 256

// one block per row; partial sums of squares reduced through shared memory
__global__ void l2_normalize_block_kernel(const float* __restrict__ input,
                                          float* __restrict__ output,
                                          int num_cols, float eps) {
    __shared__ float sdata[BLOCK_SIZE];
    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    const float* in_row = input + (size_t)row * num_cols;
    float* out_row = output + (size_t)row * num_cols;

    float local = 0.0f;
    for (int c = tid; c < num_cols; c += BLOCK_SIZE) {
        float v = in_row[c];
        local += v * v;
    }
    sdata[tid] = local;
    __syncthreads();
    for (int s = BLOCK_SIZE / 2; s > 0; s >>= 1) {
        if (tid < s) sdata[tid] += sdata[tid + s];
        __syncthreads();
    }
    const float inv_norm = 1.0f / fmaxf(sqrtf(sdata[0]), eps);

    for (int c = tid; c < num_cols; c += BLOCK_SIZE) {
        out_row[c] = in_row[c] * inv_norm;
    }
}

torch::Tensor l2_normalize(torch::Tensor input, double eps) {
    TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(input.is_contiguous(), "input must be contiguous");
    auto output = torch::empty_like(input);
    const int rows = input.size(0);
    const int cols = input.size(1);
    l2_normalize_block_kernel<<<rows, BLOCK_SIZE>>>(input.data_ptr<float>(), output.data_ptr<float>(), cols, (float)eps);
    return output;
}
"""

cpp_src = "torch::Tensor l2_normalize(torch::Tensor input, double eps);"

l2_normalize_ext = load_inline(
    name="l2_normalize_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["l2_normalize"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """L2-normalises every row with one CUDA block per row."""

    def __init__(self, eps: float = 1e-12):
        super().__init__()
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l2_normalize_ext.l2_normalize(x.contiguous(), self.eps)


batch_size = 8192
dim = 4096


def get_inputs():
    x = torch.randn(batch_size, dim, device="cuda")
    return [x]


def get_init_inputs():
    return [1e-12]
