// LayerNorm, one warp per row with float4 loads/stores of x, gamma, beta and y;
// each lane keeps 8 float4 (a 1024-wide row) in registers. cols % 4 == 0.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      128
#define ROWS_PER_BLK (THREADS / 32)
#define VEC_PER_LANE 8
#define FULL_MASK    0xffffffffu

__device__ __forceinline__ float warp_sum(float v)
{
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(FULL_MASK, v, o);
    return v;
}

// kforecast: rows = 16384; cols = 1024; eps = 0.00001; x: f32[rows, cols] randn; gamma: f32[cols] randn; beta: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
layernorm(const float* __restrict__ x, const float* __restrict__ gamma, const float* __restrict__ beta,
          float* __restrict__ y, int rows, int cols, float eps)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (row >= rows) return;
    const int n4 = cols >> 2;
    const float4* xr = reinterpret_cast<const float4*>(x + (size_t)row * cols);
    float4* yr = reinterpret_cast<float4*>(y + (size_t)row * cols);
    const float4* g4 = reinterpret_cast<const float4*>(gamma);
    const float4* b4 = reinterpret_cast<const float4*>(beta);

    float4 v[VEC_PER_LANE];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < VEC_PER_LANE; ++k) {
        const int i = lane + 32 * k;
        v[k] = i < n4 ? xr[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    const float mean = warp_sum(s) / cols;
    float q = 0.0f;
#pragma unroll
    for (int k = 0; k < VEC_PER_LANE; ++k) {
        if (lane + 32 * k < n4) {
            const float a = v[k].x - mean, b = v[k].y - mean, c = v[k].z - mean, d = v[k].w - mean;
            q += (a * a + b * b) + (c * c + d * d);
        }
    }
    const float rstd = rsqrtf(warp_sum(q) / cols + eps);
#pragma unroll
    for (int k = 0; k < VEC_PER_LANE; ++k) {
        const int i = lane + 32 * k;
        if (i < n4) {
            const float4 g = g4[i], b = b4[i];
            float4 o;
            o.x = (v[k].x - mean) * rstd * g.x + b.x;
            o.y = (v[k].y - mean) * rstd * g.y + b.y;
            o.z = (v[k].z - mean) * rstd * g.z + b.z;
            o.w = (v[k].w - mean) * rstd * g.w + b.w;
            yr[i] = o;
        }
    }
}

extern "C" void launch_layernorm(const float* x, const float* gamma, const float* beta, float* y, int rows,
                                 int cols, float eps, cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    layernorm<<<blocks, THREADS, 0, stream>>>(x, gamma, beta, y, rows, cols, eps);
}
