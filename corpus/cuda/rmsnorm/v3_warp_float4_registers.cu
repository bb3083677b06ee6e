// RMSNorm, one warp per row, float4 loads kept in registers (16 float4 per lane
// for a 2048-wide row; cols % 4 == 0 and cols <= 2048), rsqrtf, one read of x.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      128
#define ROWS_PER_BLK (THREADS / 32)
#define VEC_PER_LANE 16
#define FULL_MASK    0xffffffffu

// kforecast: rows = 8192; cols = 2048; eps = 0.000001; x: f32[rows, cols] randn; w: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
rmsnorm(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y, int rows, int cols,
        float eps)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (r >= rows) return;
    const int n4 = cols >> 2;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)r * cols);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)r * cols);
    const float4* w4 = reinterpret_cast<const float4*>(w);
    float4 v[VEC_PER_LANE];
    float ss = 0.0f;
#pragma unroll
    for (int k = 0; k < VEC_PER_LANE; ++k) {
        const int i = lane + 32 * k;
        v[k] = i < n4 ? xr[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        ss += v[k].x * v[k].x + v[k].y * v[k].y + v[k].z * v[k].z + v[k].w * v[k].w;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(FULL_MASK, ss, o);
    const float scale = rsqrtf(ss / cols + eps);
#pragma unroll
    for (int k = 0; k < VEC_PER_LANE; ++k) {
        const int i = lane + 32 * k;
        if (i < n4) {
            const float4 g = w4[i];
            yr[i] = make_float4(v[k].x * scale * g.x, v[k].y * scale * g.y, v[k].z * scale * g.z,
                                v[k].w * scale * g.w);
        }
    }
}

extern "C" void launch_rmsnorm(const float* x, const float* w, float* y, int rows, int cols, float eps,
                               cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    rmsnorm<<<blocks, THREADS, 0, stream>>>(x, w, y, rows, cols, eps);
}
