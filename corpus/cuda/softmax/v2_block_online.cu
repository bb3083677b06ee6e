// Row-wise softmax with the online algorithm: one pass keeps a running max and a
// rescaled running sum per thread, the (max, sum) pairs are merged across the
// block, then a second pass writes exp(x - max) / sum. One block of 256 per row.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   256
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2)
{
    const float mx = fmaxf(m, m2);
    const float a = m == -INFINITY ? 0.0f : s * __expf(m - mx);
    const float b = m2 == -INFINITY ? 0.0f : s2 * __expf(m2 - mx);
    m = mx;
    s = a + b;
}

// kforecast: rows = 16384; cols = 1024; in: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-6
__global__ void __launch_bounds__(THREADS)
softmax_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float red_m[THREADS / 32];
    __shared__ float red_s[THREADS / 32];
    const float* x = in + (size_t)blockIdx.x * cols;
    float* y = out + (size_t)blockIdx.x * cols;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

    float m = -INFINITY, s = 0.0f;
    for (int i = threadIdx.x; i < cols; i += THREADS) {
        const float v = x[i];
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
    if (lane == 0) {
        red_m[warp] = m;
        red_s[warp] = s;
    }
    __syncthreads();
    m = lane < THREADS / 32 ? red_m[lane] : -INFINITY;
    s = lane < THREADS / 32 ? red_s[lane] : 0.0f;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(FULL_MASK, m, o);
        const float s2 = __shfl_xor_sync(FULL_MASK, s, o);
        merge(m, s, m2, s2);
    }
    const float inv = 1.0f / s;
    for (int i = threadIdx.x; i < cols; i += THREADS) y[i] = __expf(x[i] - m) * inv;
}

extern "C" void launch_softmax(const float* in, float* out, int rows, int cols, cudaStream_t stream)
{
    softmax_rows<<<rows, THREADS, 0, stream>>>(in, out, rows, cols);
}
