// logsumexp of each row, one warp per row (8 rows per block of 256): two
// coalesced passes over the row (max, then sum of exp), shuffle reductions.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      256
#define ROWS_PER_BLK (THREADS / 32)
#define FULL_MASK    0xffffffffu

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void logsumexp_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float m = -INFINITY;
    for (int c = lane; c < cols; c += 32) m = fmaxf(m, xr[c]);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o));
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32) s += __expf(xr[c] - m);
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
    if (lane == 0) out[r] = m + __logf(s);
}

extern "C" void launch_logsumexp_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    logsumexp_rows<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
