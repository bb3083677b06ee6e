// Causal softmax (row i keeps columns 0..i, t a multiple of 4): one warp per row, online max and
// sum over the float4s that hold columns 0..i (the partial last one masked), float4 stores.
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
    const float4* x = reinterpret_cast<const float4*>(scores + (size_t)r * t);
    float4* y = reinterpret_cast<float4*>(probs + (size_t)r * t);
    const int n4 = t / 4;
    const int last = i >> 2;  // the float4 holding column i

    float m = -INFINITY, s = 0.0f;
    for (int q = lane; q <= last; q += 32) {
        const float4 v = x[q];
        const int c = 4 * q;
        const float e0 = v.x;
        const float e1 = c + 1 <= i ? v.y : -INFINITY;
        const float e2 = c + 2 <= i ? v.z : -INFINITY;
        const float e3 = c + 3 <= i ? v.w : -INFINITY;
        const float mq = fmaxf(fmaxf(e0, e1), fmaxf(e2, e3));
        const float mn = fmaxf(m, mq);
        s = s * __expf(m - mn) + (__expf(e0 - mn) + __expf(e1 - mn)) + (__expf(e2 - mn) + __expf(e3 - mn));
        m = mn;
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(FULL_MASK, m, o);
        const float s2 = __shfl_xor_sync(FULL_MASK, s, o);
        merge(m, s, m2, s2);
    }
    const float inv = 1.0f / s;
    for (int q = lane; q < n4; q += 32) {
        const int c = 4 * q;
        float4 o = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (q <= last) {
            const float4 v = x[q];
            o.x = __expf(v.x - m) * inv;
            o.y = c + 1 <= i ? __expf(v.y - m) * inv : 0.0f;
            o.z = c + 2 <= i ? __expf(v.z - m) * inv : 0.0f;
            o.w = c + 3 <= i ? __expf(v.w - m) * inv : 0.0f;
        }
        y[q] = o;
    }
}

extern "C" void launch_causal_softmax(const float* scores, float* probs, int bh, int t, cudaStream_t stream)
{
    const int rows = bh * t;
    causal_softmax<<<(rows + ROWS_PER_BLK - 1) / ROWS_PER_BLK, THREADS, 0, stream>>>(scores, probs, bh, t);
}
