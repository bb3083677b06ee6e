// Row-wise softmax, one warp per row: the row (cols <= 32 * MAX_PER_LANE) is read
// once into registers, max and sum are warp shuffles, and it is written once.
// 4 rows per block of 128 threads.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      128
#define ROWS_PER_BLK (THREADS / 32)
#define MAX_PER_LANE 32
#define FULL_MASK    0xffffffffu

// kforecast: rows = 16384; cols = 1024; in: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
softmax_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float* x = in + (size_t)row * cols;
    float* y = out + (size_t)row * cols;

    float v[MAX_PER_LANE];
    float m = -INFINITY;
#pragma unroll
    for (int k = 0; k < MAX_PER_LANE; ++k) {
        const int i = lane + k * 32;
        v[k] = i < cols ? x[i] : -INFINITY;
        m = fmaxf(m, v[k]);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o));
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < MAX_PER_LANE; ++k) {
        v[k] = lane + k * 32 < cols ? __expf(v[k] - m) : 0.0f;
        s += v[k];
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(FULL_MASK, s, o);
    const float inv = 1.0f / s;
#pragma unroll
    for (int k = 0; k < MAX_PER_LANE; ++k) {
        const int i = lane + k * 32;
        if (i < cols) y[i] = v[k] * inv;
    }
}

extern "C" void launch_softmax(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    const int blocks = (rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK;
    softmax_rows<<<blocks, THREADS, 0, stream>>>(in, out, rows, cols);
}
