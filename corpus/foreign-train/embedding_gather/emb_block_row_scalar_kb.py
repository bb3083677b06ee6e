import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// one block per token, scalar row copy
__global__ void gather_rows_scalar(const int64_t* __restrict__ idx, const float* __restrict__ table,
                                   float* __restrict__ out, int dim) {
    const int64_t tok = blockIdx.x;
    const int64_t src = idx[tok];
    for (int c = threadIdx.x; c < dim; c += blockDim.x) {
        out[tok * dim + c] = table[src * dim + c];
    }
}

torch::Tensor gather_rows(torch::Tensor indices, torch::Tensor weight) {
    const int64_t n = indices.numel();
    const int dim = weight.size(1);
    auto out = torch::empty({n, (int64_t)dim}, weight.options());
    gather_rows_scalar<<<n, 256>>>(indices.data_ptr<int64_t>(), weight.data_ptr<float>(),
                                   out.data_ptr<float>(), dim);
    return out;
}
"""

gather_rows_ext = load_inline(
    name="gather_rows_ext",
    cpp_sources="torch::Tensor gather_rows(torch::Tensor indices, torch::Tensor weight);",
    cuda_sources=cuda_src,
    functions=["gather_rows"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, indices, weight):
        return gather_rows_ext.gather_rows(indices, weight)


def get_inputs():
    return [torch.randint(0, 65536, (65536,), device="cuda"), torch.randn(65536, 1024, device="cuda")]


def get_init_inputs():
    return []
