// Causal softmax (row i keeps columns 0..i): one warp per row, 8 rows per 256-thread block, the
// whole row read and masked in three passes, max and sum reduced with warp shuffles.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      256
#define ROWS_PER_BLK (THREADS / 32)
#define FULL_MASK    0xffffffffu

// kforecast: bh = 32; t = 1024; scores: f32[bh, t, t] randn; probs: f32[bh, t, t]; rtol = 1e-3; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
causal_softmax(const float* __restrict__ scores, float* __restrict__ probs, int bh, int t)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * ROWS_PER_BLK + (threadIdx.x >> 5);
    if (r >= bh * t) return;
    const int i = r % t;
    const float* x = scores + (size_t)r * t;
    float* y = probs + (size_t)r * t;

    float m = -INFINITY;
    for (int j = lane; j < t; j += 32) {
        const float v = x[j];
        m = fmaxf(m, j <= i ? v : -INFINITY);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(FULL_MASK, m, o));

    float sum = 0.0f;
    for (int j = lane; j < t; j += 32) {
        const float v = x[j];
        sum += j <= i ? __expf(v - m) : 0.0f;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(FULL_MASK, sum, o);
    const float inv = 1.0f / sum;

    for (int j = lane; j < t; j += 32) {
        const float v = x[j];
        y[j] = j <= i ? __expf(v - m) * inv : 0.0f;
    }
}

extern "C" void launch_causal_softmax(const float* scores, float* probs, int bh, int t, cudaStream_t stream)
{
    const int rows = bh * t;
    causal_softmax<<<(rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK, THREADS, 0, stream>>>(scores, probs, bh, t);
}
