// All-pairs acceleration: shared-memory tiles of 128 bodies, each thread computes
// two target bodies (i and i + 128) so every tile entry read feeds two
// interactions; rsqrtf. Blocks of 128 threads cover 256 targets.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 128

// kforecast: n = 16384; soft2 = 0.01; pos: f32[n, 4] rand; acc: f32[n, 4]; rtol = 1e-3; atol = 0.05
__global__ void __launch_bounds__(THREADS)
nbody_accel(const float4* __restrict__ pos, float4* __restrict__ acc, int n, float soft2)
{
    __shared__ float4 tile[THREADS];
    const int i0 = blockIdx.x * (2 * THREADS) + threadIdx.x;
    const int i1 = i0 + THREADS;
    const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    const float4 p0 = i0 < n ? pos[i0] : zero;
    const float4 p1 = i1 < n ? pos[i1] : zero;
    float ax0 = 0.0f, ay0 = 0.0f, az0 = 0.0f, ax1 = 0.0f, ay1 = 0.0f, az1 = 0.0f;
    for (int j0 = 0; j0 < n; j0 += THREADS) {
        const int j = j0 + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : zero;
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < THREADS; ++k) {
            const float4 pj = tile[k];
            float dx = pj.x - p0.x, dy = pj.y - p0.y, dz = pj.z - p0.z;
            float inv_r = rsqrtf(fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, soft2))));
            float s = pj.w * inv_r * inv_r * inv_r;
            ax0 = fmaf(dx, s, ax0);
            ay0 = fmaf(dy, s, ay0);
            az0 = fmaf(dz, s, az0);
            dx = pj.x - p1.x;
            dy = pj.y - p1.y;
            dz = pj.z - p1.z;
            inv_r = rsqrtf(fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, soft2))));
            s = pj.w * inv_r * inv_r * inv_r;
            ax1 = fmaf(dx, s, ax1);
            ay1 = fmaf(dy, s, ay1);
            az1 = fmaf(dz, s, az1);
        }
        __syncthreads();
    }
    if (i0 < n) acc[i0] = make_float4(ax0, ay0, az0, 0.0f);
    if (i1 < n) acc[i1] = make_float4(ax1, ay1, az1, 0.0f);
}

extern "C" void launch_nbody_accel(const float4* pos, float4* acc, int n, float soft2, cudaStream_t stream)
{
    nbody_accel<<<(n + 2 * THREADS - 1) / (2 * THREADS), THREADS, 0, stream>>>(pos, acc, n, soft2);
}
