import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

nbody_source = r"""
#include <torch/extension.h>

constexpr int BLOCK = 128;
constexpr int PER_THREAD = 2;

__device__ __forceinline__ void body_body(const float4& me, const float4& other, float eps2,
                                          float& ax, float& ay, float& az) {
    float dx = other.x - me.x;
    float dy = other.y - me.y;
    float dz = other.z - me.z;
    float r2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, eps2)));
    float inv = rsqrtf(r2);
    float s = other.w * inv * inv * inv;
    ax = fmaf(dx, s, ax);
    ay = fmaf(dy, s, ay);
    az = fmaf(dz, s, az);
}

// each thread owns two bodies (BLOCK apart), so every body staged in shared memory is read
// once for two interactions; the inner loop is unrolled by 8
__global__ void nbody_accel_tiled_ilp2(const float4* __restrict__ bodies, float* __restrict__ acc,
                                       int n, float eps2) {
    __shared__ float4 tile[BLOCK * PER_THREAD];
    const int first = blockIdx.x * BLOCK * PER_THREAD + threadIdx.x;
    float4 me[PER_THREAD];
    float ax[PER_THREAD], ay[PER_THREAD], az[PER_THREAD];
#pragma unroll
    for (int q = 0; q < PER_THREAD; ++q) {
        int i = first + q * BLOCK;
        me[q] = i < n ? bodies[i] : make_float4(0.f, 0.f, 0.f, 0.f);
        ax[q] = ay[q] = az[q] = 0.f;
    }
    for (int base = 0; base < n; base += BLOCK * PER_THREAD) {
#pragma unroll
        for (int q = 0; q < PER_THREAD; ++q) {
            int j = base + threadIdx.x + q * BLOCK;
            tile[threadIdx.x + q * BLOCK] = j < n ? bodies[j] : make_float4(0.f, 0.f, 0.f, 0.f);
        }
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < BLOCK * PER_THREAD; ++k) {
            float4 other = tile[k];
#pragma unroll
            for (int q = 0; q < PER_THREAD; ++q) body_body(me[q], other, eps2, ax[q], ay[q], az[q]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int q = 0; q < PER_THREAD; ++q) {
        int i = first + q * BLOCK;
        if (i < n) {
            acc[3 * i + 0] = ax[q];
            acc[3 * i + 1] = ay[q];
            acc[3 * i + 2] = az[q];
        }
    }
}

torch::Tensor nbody_accel(torch::Tensor bodies, double eps2) {
    TORCH_CHECK(bodies.is_cuda() && bodies.dim() == 2 && bodies.size(1) == 4, "bodies must be [n, 4] on the GPU");
    const int n = bodies.size(0);
    auto acc = torch::empty({bodies.size(0), 3}, bodies.options());
    const int per_block = BLOCK * PER_THREAD;
    const int blocks = (n + per_block - 1) / per_block;
    nbody_accel_tiled_ilp2<<<blocks, BLOCK>>>(reinterpret_cast<const float4*>(bodies.data_ptr<float>()),
                                              acc.data_ptr<float>(), n, (float)eps2);
    return acc;
}
"""

nbody_cpp_source = "torch::Tensor nbody_accel(torch::Tensor bodies, double eps2);"

nbody = load_inline(
    name="nbody_ilp",
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
