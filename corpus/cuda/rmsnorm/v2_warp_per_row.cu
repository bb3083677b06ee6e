// RMSNorm, one warp per row: coalesced strided loop for the sum of squares, a
// shuffle reduction, and a second pass over the row (served from L1/L2).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      256
#define ROWS_PER_BLK (THREADS / 32)
#define FULL_MASK    0xffffffffu

// kforecast: rows = 8192; cols = 2048; eps = 0.000001; x: f32[rows, cols] randn; w: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-3; atol = 1e-4
__global__ void rmsnorm(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ y,
                        int rows, int cols, float eps)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float* yr = y + (size_t)r * cols;
    float ss = 0.0f;
    for (int c = lane; c < cols; c += 32) ss += xr[c] * xr[c];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(FULL_MASK, ss, o);
    const float scale = 1.0f / sqrtf(ss / cols + eps);
    for (int c = lane; c < cols; c += 32) yr[c] = xr[c] * scale * w[c];
}

extern "C" void launch_rmsnorm(const float* x, const float* w, float* y, int rows, int cols, float eps,
                               cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    rmsnorm<<<blocks, THREADS, 0, stream>>>(x, w, y, rows, cols, eps);
}
