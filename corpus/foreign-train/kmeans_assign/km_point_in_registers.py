import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

// the point's DIM coordinates are held in registers, the distance loop is unrolled over DIM
template <int DIM>
__global__ void __launch_bounds__(256) kmeans_label_regs(const float* __restrict__ points,
                                                         const float* __restrict__ centroids,
                                                         int64_t* __restrict__ labels, int n, int k) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float p[DIM];
    const float4* src = reinterpret_cast<const float4*>(points + (size_t)i * DIM);
#pragma unroll
    for (int j = 0; j < DIM / 4; ++j) {
        const float4 v = src[j];
        p[4 * j] = v.x; p[4 * j + 1] = v.y; p[4 * j + 2] = v.z; p[4 * j + 3] = v.w;
    }
    float best = 3.402823466e38f;
    int best_c = 0;
    for (int c = 0; c < k; ++c) {
        const float* cen = centroids + c * DIM;
        float acc = 0.f;
#pragma unroll
        for (int j = 0; j < DIM; ++j) {
            const float diff = p[j] - __ldg(cen + j);
            acc = fmaf(diff, diff, acc);
        }
        if (acc < best) {
            best = acc;
            best_c = c;
        }
    }
    labels[i] = best_c;
}

torch::Tensor kmeans_labels(torch::Tensor points, torch::Tensor centroids) {
    const int n = points.size(0), d = points.size(1), k = centroids.size(0);
    auto labels = torch::empty({n}, points.options().dtype(torch::kLong));
    const int threads = 256, blocks = (n + threads - 1) / threads;
    switch (d) {
        case 16:
            kmeans_label_regs<16><<<blocks, threads>>>(points.data_ptr<float>(), centroids.data_ptr<float>(),
                                                       labels.data_ptr<int64_t>(), n, k);
            break;
        case 32:
            kmeans_label_regs<32><<<blocks, threads>>>(points.data_ptr<float>(), centroids.data_ptr<float>(),
                                                       labels.data_ptr<int64_t>(), n, k);
            break;
        case 64:
            kmeans_label_regs<64><<<blocks, threads>>>(points.data_ptr<float>(), centroids.data_ptr<float>(),
                                                       labels.data_ptr<int64_t>(), n, k);
            break;
        default:
            TORCH_CHECK(false, "unsupported feature dimension");
    }
    return labels;
}
"""

kmeans_ext = load_inline(
    name="kmeans_ext",
    cpp_sources="torch::Tensor kmeans_labels(torch::Tensor points, torch::Tensor centroids);",
    cuda_sources=cuda_src,
    functions=["kmeans_labels"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, points, centroids):
        return kmeans_ext.kmeans_labels(points.contiguous(), centroids.contiguous())


def get_inputs():
    return [torch.randn(4194304, 32, device="cuda"), torch.randn(64, 32, device="cuda")]


def get_init_inputs():
    return []
