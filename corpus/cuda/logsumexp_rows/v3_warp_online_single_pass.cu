// logsumexp of each row, one warp per row, single pass with the online algorithm
// (running max and rescaled running sum per lane), (max, sum) pairs merged with
// shuffles; x is read once.
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
    float m = -INFINITY, s = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        const float v = xr[c];
        if (v > m) {
            s = s * __expf(m - v) + 1.0f;
            m = v;
        } else {
            s += __expf(v - m);
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(FULL_MASK, m, o);
        const float s2 = __shfl_xor_sync(FULL_MASK, s, o);
        const float mx = fmaxf(m, m2);
        const float a = m == -INFINITY ? 0.0f : s * __expf(m - mx);
        const float b = m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mx);
        m = mx;
        s = a + b;
    }
    if (lane == 0) out[r] = m + __logf(s);
}

extern "C" void launch_logsumexp_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    logsumexp_rows<<<blocks, THREADS, 0, stream>>>(x, out, rows, cols);
}
