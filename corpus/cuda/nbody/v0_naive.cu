// All-pairs gravitational acceleration: pos[i] = (x, y, z, mass);
// acc[i] = sum_j m_j (p_j - p_i) / (|p_j - p_i|^2 + soft2)^(3/2), acc[i].w = 0.
// Naive: every thread streams all bodies from global memory (L1/L2 cached).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: n = 16384; soft2 = 0.01; pos: f32[n, 4] rand; acc: f32[n, 4]; rtol = 1e-3; atol = 0.05
__global__ void nbody_accel(const float4* __restrict__ pos, float4* __restrict__ acc, int n, float soft2)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float4 pi = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j = 0; j < n; ++j) {
        const float4 pj = pos[j];
        const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
        const float r2 = dx * dx + dy * dy + dz * dz + soft2;
        const float inv_r3 = 1.0f / (r2 * sqrtf(r2));
        const float s = pj.w * inv_r3;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    acc[i] = make_float4(ax, ay, az, 0.0f);
}

extern "C" void launch_nbody_accel(const float4* pos, float4* acc, int n, float soft2, cudaStream_t stream)
{
    nbody_accel<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(pos, acc, n, soft2);
}
