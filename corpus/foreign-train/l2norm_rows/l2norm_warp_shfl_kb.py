import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

source = r"""
#include <torch/extension.h>

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int off = 16; off > 0; off >>= 1) v += __shfl_xor_sync(0xffffffff, v, off);
    return v;
}

// one warp per row, WARPS_PER_BLOCK rows per block
template <int WARPS_PER_BLOCK>
__global__ void rownorm_warp(const float* __restrict__ x, float* __restrict__ y,
                             int n_rows, int n_cols, float eps) {
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * WARPS_PER_BLOCK + (threadIdx.x >> 5);
    if (row >= n_rows) return;
    const float* xr = x + (size_t)row * n_cols;
    float* yr = y + (size_t)row * n_cols;
    float acc = 0.f;
    for (int j = lane; j < n_cols; j += 32) {
        const float t = __ldg(xr + j);
        acc = fmaf(t, t, acc);
    }
    acc = warp_sum(acc);
    const float r = 1.f / fmaxf(sqrtf(acc), eps);
    for (int j = lane; j < n_cols; j += 32) yr[j] = __ldg(xr + j) * r;
}

torch::Tensor rownorm_forward(torch::Tensor x, double eps) {
    auto y = torch::empty_like(x);
    const int n_rows = x.size(0), n_cols = x.size(1);
    constexpr int W = 8;
    dim3 block(32 * W), grid((n_rows + W - 1) / W);
    rownorm_warp<W><<<grid, block>>>(x.data_ptr<float>(), y.data_ptr<float>(), n_rows, n_cols, (float)eps);
    return y;
}
"""

rownorm = load_inline(
    name="rownorm",
    cpp_sources="torch::Tensor rownorm_forward(torch::Tensor x, double eps);",
    cuda_sources=source,
    functions=["rownorm_forward"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self, eps):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        return rownorm.rownorm_forward(x, self.eps)


def get_inputs():
    return [torch.randn(8192, 4096, device="cuda")]


def get_init_inputs():
    return [1e-12]
