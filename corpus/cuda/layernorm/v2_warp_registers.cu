// LayerNorm, one warp per row: the row (cols <= 1024) is held in registers, so
// x is read once; mean and variance (two-pass, from registers) use shuffles.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      256
#define ROWS_PER_BLK (THREADS / 32)
#define PER_LANE     32
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
    const float* xr = x + (size_t)row * cols;
    float* yr = y + (size_t)row * cols;

    float v[PER_LANE];
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) {
        const int i = lane + 32 * k;
        v[k] = i < cols ? xr[i] : 0.0f;
        s += v[k];
    }
    const float mean = warp_sum(s) / cols;
    float q = 0.0f;
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) {
        const float d = lane + 32 * k < cols ? v[k] - mean : 0.0f;
        q += d * d;
    }
    const float rstd = rsqrtf(warp_sum(q) / cols + eps);
#pragma unroll
    for (int k = 0; k < PER_LANE; ++k) {
        const int i = lane + 32 * k;
        if (i < cols) yr[i] = (v[k] - mean) * rstd * gamma[i] + beta[i];
    }
}

extern "C" void launch_layernorm(const float* x, const float* gamma, const float* beta, float* y, int rows,
                                 int cols, float eps, cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    layernorm<<<blocks, THREADS, 0, stream>>>(x, gamma, beta, y, rows, cols, eps);
}
