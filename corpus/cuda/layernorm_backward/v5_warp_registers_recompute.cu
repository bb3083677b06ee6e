// LayerNorm input gradient, one warp per row (D <= 1024): dy and x are kept in registers as
// float4 (read once), g and xhat recomputed in the output pass with gamma re-read (cache hits).
#include <cuda_runtime.h>

#define THREADS   128
#define WARPS     (THREADS / 32)
#define MAX_VEC   8
#define FULL_MASK 0xffffffffu

// kforecast: rows = 16384; D = 1024; dy: f32[rows, D] randn; x: f32[rows, D] randn; mean: f32[rows] randn; rstd: f32[rows] rand; gamma: f32[D] randn; dx: f32[rows, D]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
layernorm_backward(const float* __restrict__ dy, const float* __restrict__ x, const float* __restrict__ mean,
                   const float* __restrict__ rstd, const float* __restrict__ gamma, float* __restrict__ dx,
                   int rows, int D)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float4* dy4 = reinterpret_cast<const float4*>(dy + (size_t)r * D);
    const float4* x4 = reinterpret_cast<const float4*>(x + (size_t)r * D);
    const float4* w4 = reinterpret_cast<const float4*>(gamma);
    float4* dx4 = reinterpret_cast<float4*>(dx + (size_t)r * D);
    const int n4 = D >> 2;
    const float mu = mean[r], rs = rstd[r];

    float4 a[MAX_VEC], b[MAX_VEC];
    float sum_g = 0.0f, sum_gx = 0.0f;
#pragma unroll
    for (int k = 0; k < MAX_VEC; ++k) {
        const int j = lane + k * 32;
        if (j < n4) {
            a[k] = dy4[j];
            b[k] = x4[j];
            const float4 w = __ldg(&w4[j]);
            const float g0 = a[k].x * w.x, g1 = a[k].y * w.y, g2 = a[k].z * w.z, g3 = a[k].w * w.w;
            sum_g += (g0 + g1) + (g2 + g3);
            sum_gx += g0 * ((b[k].x - mu) * rs) + g1 * ((b[k].y - mu) * rs) + g2 * ((b[k].z - mu) * rs)
                    + g3 * ((b[k].w - mu) * rs);
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        sum_g += __shfl_xor_sync(FULL_MASK, sum_g, o);
        sum_gx += __shfl_xor_sync(FULL_MASK, sum_gx, o);
    }
    const float c1 = sum_g / D, c2 = sum_gx / D;
#pragma unroll
    for (int k = 0; k < MAX_VEC; ++k) {
        const int j = lane + k * 32;
        if (j < n4) {
            const float4 w = __ldg(&w4[j]);
            float4 o;
            o.x = rs * (a[k].x * w.x - c1 - (b[k].x - mu) * rs * c2);
            o.y = rs * (a[k].y * w.y - c1 - (b[k].y - mu) * rs * c2);
            o.z = rs * (a[k].z * w.z - c1 - (b[k].z - mu) * rs * c2);
            o.w = rs * (a[k].w * w.w - c1 - (b[k].w - mu) * rs * c2);
            dx4[j] = o;
        }
    }
}

extern "C" void launch_layernorm_backward(const float* dy, const float* x, const float* mean, const float* rstd,
                                          const float* gamma, float* dx, int rows, int D, cudaStream_t stream)
{
    layernorm_backward<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(dy, x, mean, rstd, gamma, dx, rows, D);
}
