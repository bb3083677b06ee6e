import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

nbody_source = r"""
#include <torch/extension.h>

// one thread per body, every other body read straight from global memory
__global__ void nbody_accel_naive(const float4* __restrict__ bodies, float* __restrict__ acc,
                                  int n, float eps2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 me = bodies[i];
    float ax = 0.f, ay = 0.f, az = 0.f;
    for (int j = 0; j < n; ++j) {
        float4 other = bodies[j];
        float dx = other.x - me.x;
        float dy = other.y - me.y;
        float dz = other.z - me.z;
        float r2 = dx * dx + dy * dy + dz * dz + eps2;
        float inv = rsqrtf(r2);
        float s = other.w * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    acc[3 * i + 0] = ax;
    acc[3 * i + 1] = ay;
    acc[3 * i + 2] = az;
}

torch::Tensor nbody_accel(torch::Tensor bodies, double eps2) {
    TORCH_CHECK(bodies.is_cuda() && bodies.dim() == 2 && bodies.size(1) == 4, "bodies must be [n, 4] on the GPU");
    const int n = bodies.size(0);
    auto acc = torch::empty({bodies.size(0), 3}, bodies.options());
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    nbody_accel_naive<<<blocks, threads>>>(reinterpret_cast<const float4*>(bodies.data_ptr<float>()),
                                           acc.data_ptr<float>(), n, (float)eps2);
    return acc;
}
"""

nbody_cpp_source = "torch::Tensor nbody_accel(torch::Tensor bodies, double eps2);"

nbody = load_inline(
    name="nbody",
    cpp_sources=nbody_cpp_source,
    cuda_sources=nbody_source,
    functions=["nbody_accel"],
    verbose=False,
    extra_cflags=["-O3"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    """Gravitational accelerations of n bodies (x, y, z, mass) with softening eps2."""

    def __init__(self, eps2):
        super().__init__()
        self.eps2 = eps2
        self.nbody = nbody

    def forward(self, bodies):
        return self.nbody.nbody_accel(bodies.contiguous(), self.eps2)


n_bodies = 32768


def get_inputs():
    pos = torch.randn(n_bodies, 3)
    mass = torch.rand(n_bodies, 1) / n_bodies
    return [torch.cat([pos, mass], dim=1).cuda()]


def get_init_inputs():
    return [0.01]
