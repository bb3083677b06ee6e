// LayerNorm input gradient, one warp per row but each lane owns a contiguous chunk of D / 32
// columns (a warp's loads hit 32 different cache lines per step), two passes, shuffle sums.
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
    const int chunk = (D + 31) / 32;
    const int j0 = lane * chunk;
    const int j1 = min(j0 + chunk, D);
    float sum_g = 0.0f, sum_gx = 0.0f;
    for (int j = j0; j < j1; ++j) {
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
    for (int j = j0; j < j1; ++j) {
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
