// All-pairs acceleration with shared-memory tiling: each block loads 256 bodies
// into shared memory per step and every thread reuses them (GPU Gems 3, ch. 31).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: n = 16384; soft2 = 0.01; pos: f32[n, 4] rand; acc: f32[n, 4]; rtol = 1e-3; atol = 0.05
__global__ void nbody_accel(const float4* __restrict__ pos, float4* __restrict__ acc, int n, float soft2)
{
    __shared__ float4 tile[THREADS];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const float4 pi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j0 = 0; j0 < n; j0 += THREADS) {
        const int j = j0 + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
        const int m = n - j0 < THREADS ? n - j0 : THREADS;
        for (int k = 0; k < m; ++k) {
            const float4 pj = tile[k];
            const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
            const float r2 = dx * dx + dy * dy + dz * dz + soft2;
            const float inv_r3 = 1.0f / (r2 * sqrtf(r2));
            const float s = pj.w * inv_r3;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(ax, ay, az, 0.0f);
}

extern "C" void launch_nbody_accel(const float4* pos, float4* acc, int n, float soft2, cudaStream_t stream)
{
    nbody_accel<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(pos, acc, n, soft2);
}
