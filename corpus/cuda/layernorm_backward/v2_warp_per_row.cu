// LayerNorm input gradient, one warp per row (8 rows per block): lanes stride along the row,
// both sums reduced with xor shuffles, then a second coalesced pass re-reading dy, x, gamma.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 16384; D = 1024; dy: f32[rows, D] randn; x: f32[rows, D] randn; mean: f32[rows] randn; rstd: f32[rows] rand; gamma: f32[D] randn; dx: f32[rows, D]; rtol = 1e-3; atol = 1e-4
__global__ void layernorm_backward(const float* __restrict__ dy, const float* __restrict__ x, const float* __restrict__ mean,
                                   const float* __restrict__ rstd, const float* __restrict__ gamma, float* __restrict__ dx,
                                   int rows, int D)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* dyr = dy + (size_t)r * D;
    const float* xr = x + (size_t)r * D;
    float* dxr = dx + (size_t)r * D;
    const float mu = mean[r], rs = rstd[r];
    float sum_g = 0.0f, sum_gx = 0.0f;
    for (int j = lane; j < D; j += 32) {
        const float xhat = (xr[j] - mu) * rs;
        const float g = dyr[j] * gamma[j];
        sum_g += g;
        sum_gx += g * xhat;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        sum_g += __shfl_xor_sync(FULL_MASK, sum_g, o);
        sum_gx += __shfl_xor_sync(FULL_MASK, sum_gx, o);
    }
    const float c1 = sum_g / D, c2 = sum_gx / D;
    for (int j = lane; j < D; j += 32) {
        const float xhat = (xr[j] - mu) * rs;
        const float g = dyr[j] * gamma[j];
        dxr[j] = rs * (g - c1 - xhat * c2);
    }
}

extern "C" void launch_layernorm_backward(const float* dy, const float* x, const float* mean, const float* rstd,
                                          const float* gamma, float* dx, int rows, int D, cudaStream_t stream)
{
    layernorm_backward<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(dy, x, mean, rstd, gamma, dx, rows, D);
}
