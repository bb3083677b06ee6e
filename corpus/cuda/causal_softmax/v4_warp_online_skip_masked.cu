// Causal softmax (row i keeps columns 0..i): one warp per row, online max and sum over columns
// 0..i only (the masked part is never read), then the write pass stores zeros without loading.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS      256
#define ROWS_PER_BLK (THREADS / 32)
#define FULL_MASK    0xffffffffu

// Merges the running (max, sum) pair (m2, s2) into (m, s).
__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2)
{
    const float mx = fmaxf(m, m2);
    const float a = m == -INFINITY ? 0.0f : s * __expf(m - mx);
    const float b = m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mx);
    m = mx;
    s = a + b;
}

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

    float m = -INFINITY, s = 0.0f;
    for (int j = lane; j <= i; j += 32) {
        const float v = x[j];
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
        merge(m, s, m2, s2);
    }
    const float inv = 1.0f / s;
    for (int j = lane; j <= i; j += 32) y[j] = __expf(x[j] - m) * inv;
    for (int j = i + 1 + lane; j < t; j += 32) y[j] = 0.0f;
}

extern "C" void launch_causal_softmax(const float* scores, float* probs, int bh, int t, cudaStream_t stream)
{
    const int rows = bh * t;
    causal_softmax<<<(rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK, THREADS, 0, stream>>>(scores, probs, bh, t);
}
