// Per-row population variance in one pass: one warp per row, each lane runs Welford's online update (count, mean, M2) over its strided elements, lanes are merged with shuffles using Chan's parallel formula.
#include <cuda_runtime.h>

#define THREADS   256
#define WARPS     (THREADS / 32)
#define FULL_MASK 0xffffffffu

__device__ __forceinline__ void welford_merge(float& n, float& mean, float& m2, float n_b, float mean_b, float m2_b)
{
    const float count = n + n_b;
    if (count == 0.0f) return;
    const float delta = mean_b - mean;
    const float w = n_b / count;
    mean = mean + delta * w;
    m2 = m2 + m2_b + delta * delta * n * w;
    n = count;
}

// kforecast: rows = 16384; cols = 4096; x: f32[rows, cols] randn; out: f32[rows]; rtol = 1e-3; atol = 1e-4
__global__ void __launch_bounds__(THREADS)
welford_var_rows(const float* __restrict__ x, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int r = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (r >= rows) return;
    const float* xr = x + (size_t)r * cols;
    float n = 0.0f, mean = 0.0f, m2 = 0.0f;
    for (int c = lane; c < cols; c += 32) {
        const float v = xr[c];
        n += 1.0f;
        const float d = v - mean;
        mean += d / n;
        m2 += d * (v - mean);
    }
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
        const float n_b = __shfl_xor_sync(FULL_MASK, n, o);
        const float mean_b = __shfl_xor_sync(FULL_MASK, mean, o);
        const float m2_b = __shfl_xor_sync(FULL_MASK, m2, o);
        welford_merge(n, mean, m2, n_b, mean_b, m2_b);
    }
    if (lane == 0) out[r] = m2 / cols;
}

extern "C" void launch_welford_var_rows(const float* x, float* out, int rows, int cols, cudaStream_t stream)
{
    welford_var_rows<<<(rows + WARPS - 1) / WARPS, THREADS, 0, stream>>>(x, out, rows, cols);
}
