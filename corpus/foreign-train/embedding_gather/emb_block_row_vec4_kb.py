import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdint>

// one block per token, the row copied as float4
__global__ void gather_rows_vec4(const int64_t* __restrict__ idx, const float4* __restrict__ table,
                                 float4* __restrict__ out, int dim4) {
    const int64_t tok = blockIdx.x;
    const int64_t src = __ldg(idx + tok);
    const float4* s = table + src * dim4;
    float4* d = out + tok * dim4;
    for (int c = threadIdx.x; c < dim4; c += blockDim.x) {
        d[c] = __ldg(s + c);
    }
}

torch::Tensor gather_rows(torch::Tensor indices, torch::Tensor weight) {
    TORCH_CHECK(weight.size(1) % 4 == 0, "embedding dim must be a multiple of 4");
    const int64_t n = indices.numel();
    const int dim = weight.size(1);
    auto out = torch::empty({n, (int64_t)dim}, weight.options());
    const int dim4 = dim / 4;
    const int threads = dim4 < 256 ? 128 : 256;
    gather_rows_vec4<<<n, threads>>>(indices.data_ptr<int64_t>(),
                                     reinterpret_cast<const float4*>(weight.data_ptr<float>()),
                                     reinterpret_cast<float4*>(out.data_ptr<float>()), dim4);
    return out;
}
"""

cpp_src = "torch::Tensor gather_rows(torch::Tensor indices, torch::Tensor weight);"

gather_rows_ext = load_inline(
    name="gather_rows_ext",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["gather_rows"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """Embedding lookup: a block per token, vectorised row copy."""

    def __init__(self):
        super().__init__()

    def forward(self, indices, weight):
        return gather_rows_ext.gather_rows(indices, weight)


def get_inputs():
    return [torch.randint(0, 65536, (65536,), device="cuda"), torch.randn(65536, 1024, device="cuda")]


def get_init_inputs():
    return []
