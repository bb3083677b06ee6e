// Softmax over dim 0: one warp per column, lanes stride down the rows (online max/sum, shuffle merge, write pass); every warp load touches 32 different rows (uncoalesced).
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ void merge(float& m, float& s, float m2, float s2)
{
    const float mx = fmaxf(m, m2);
    const float a = m == -INFINITY ? 0.0f : s * expf(m - mx);
    const float b = m2 == -INFINITY ? 0.0f : s2 * expf(m2 - mx);
    m = mx;
    s = a + b;
}

// kforecast: rows = 4096; cols = 8192; x: f32[rows, cols] randn; out: f32[rows, cols]; rtol = 1e-3; atol = 1e-8
__global__ void __launch_bounds__(THREADS)
softmax_dim0(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int c = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (c >= cols) return;
    float m = -INFINITY, s = 0.0f;
    for (int r = lane; r < rows; r += 32) {
        const float v = x[(size_t)r * cols + c];
        if (v > m) {
            s = s * expf(m - v) + 1.0f;
            m = v;
        } else {
            s += expf(v - m);
        }
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float m2 = __shfl_xor_sync(FULL_MASK, m, o);
        const float s2 = __shfl_xor_sync(FULL_MASK, s, o);
        merge(m, s, m2, s2);
    }
    const float inv = 1.0f / s;
    for (int r = lane; r < rows; r += 32) out[(size_t)r * cols + c] = expf(x[(size_t)r * cols + c] - m) * inv;
}

extern "C" void launch_softmax_dim0(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    softmax_dim0<<<(cols + WARPS - 1) / WARPS, THREADS, 0, stream>>>(x, out, rows, cols);
}
