import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

kernel_code = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define MAX_CENTROID_FLOATS 8192
__constant__ float const_centroids[MAX_CENTROID_FLOATS];

__global__ void nearest_centroid_const(const float* __restrict__ pts, int64_t* __restrict__ assign,
                                       int num_points, int num_clusters, int dim) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= num_points) return;
    const float* x = pts + (size_t)p * dim;
    float best = 3.402823466e38f;
    int arg = 0;
    for (int c = 0; c < num_clusters; c++) {
        float s = 0.0f;
        for (int j = 0; j < dim; j++) {
            float diff = x[j] - const_centroids[c * dim + j];
            s = fmaf(diff, diff, s);
        }
        if (s < best) { best = s; arg = c; }
    }
    assign[p] = arg;
}

torch::Tensor nearest_centroid(torch::Tensor pts, torch::Tensor centroids) {
    int num_points = pts.size(0), dim = pts.size(1), num_clusters = centroids.size(0);
    TORCH_CHECK((int64_t)num_clusters * dim <= MAX_CENTROID_FLOATS, "too many centroid values for constant memory");
    cudaMemcpyToSymbolAsync(const_centroids, centroids.data_ptr<float>(),
                            sizeof(float) * num_clusters * dim, 0, cudaMemcpyDeviceToDevice, 0);
    auto assign = torch::empty({num_points}, pts.options().dtype(torch::kLong));
    int threads = 128;
    nearest_centroid_const<<<(num_points + threads - 1) / threads, threads>>>(
        pts.data_ptr<float>(), assign.data_ptr<int64_t>(), num_points, num_clusters, dim);
    return assign;
}
"""

nearest_centroid_module = load_inline(
    name="nearest_centroid_const",
    cpp_sources="torch::Tensor nearest_centroid(torch::Tensor pts, torch::Tensor centroids);",
    cuda_sources=kernel_code,
    functions=["nearest_centroid"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, points, centroids):
        return nearest_centroid_module.nearest_centroid(points.contiguous(), centroids.contiguous())


def get_inputs():
    return [torch.randn(4194304, 32, device="cuda"), torch.randn(64, 32, device="cuda")]


def get_init_inputs():
    return []
