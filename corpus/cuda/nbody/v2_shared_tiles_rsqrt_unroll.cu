// All-pairs acceleration: shared-memory tiles of 256 bodies, inner loop unrolled
// by 8, and inv_r3 from rsqrtf (one MUFU op instead of sqrt + division).
// n must be a multiple of the tile (zero-mass padding covers the rest).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS 256

// kforecast: n = 16384; soft2 = 0.01; pos: f32[n, 4] rand; acc: f32[n, 4]; rtol = 1e-3; atol = 0.05
__global__ void __launch_bounds__(THREADS)
nbody_accel(const float4* __restrict__ pos, float4* __restrict__ acc, int n, float soft2)
{
    __shared__ float4 tile[THREADS];
    const int i = blockIdx.x * THREADS + threadIdx.x;
    const float4 pi = i < n ? pos[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int j0 = 0; j0 < n; j0 += THREADS) {
        const int j = j0 + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);  // mass 0: no force
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < THREADS; ++k) {
            const float4 pj = tile[k];
            const float dx = pj.x - pi.x, dy = pj.y - pi.y, dz = pj.z - pi.z;
            const float r2 = fmaf(dx, dx, fmaf(dy, dy, fmaf(dz, dz, soft2)));
            const float inv_r = rsqrtf(r2);
            const float s = pj.w * inv_r * inv_r * inv_r;
            ax = fmaf(dx, s, ax);
            ay = fmaf(dy, s, ay);
            az = fmaf(dz, s, az);
        }
        __syncthreads();
    }
    if (i < n) acc[i] = make_float4(ax, ay, az, 0.0f);
}

extern "C" void launch_nbody_accel(const float4* pos, float4* acc, int n, float soft2, cudaStream_t stream)
{
    nbody_accel<<<(n + THREADS - 1) / THREADS, THREADS, 0, stream>>>(pos, acc, n, soft2);
}
