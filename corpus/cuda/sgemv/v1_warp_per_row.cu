// y = A @ x, one warp per row: lanes stride along the row (coalesced), shuffle sum.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

// kforecast: rows = 8192; cols = 4096; A: f32[rows, cols] randn; x: f32[cols] randn; y: f32[rows]; rtol = 1e-3; atol = 1e-2
__global__ void sgemv(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int rows,
                      int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* a = A + (size_t)r * cols;
    float acc = 0.0f;
    for (int c = lane; c < cols; c += 32) acc += a[c] * x[c];
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(FULL_MASK, acc, o);
    if (lane == 0) y[r] = acc;
}

extern "C" void launch_sgemv(const float* A, const float* x, float* y, int rows, int cols, cudaStream_t stream)
{
    sgemv<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(A, x, y, rows, cols);
}
