// LayerNorm, one block of 128 threads per row: per-thread Welford statistics
// (count, mean, M2) in one pass, merged across lanes with shuffles and across
// warps through shared memory (Chan's parallel formula); a second pass normalises.
#include <cuda_runtime.h>
#include <math.h>

#define THREADS   128
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

// kforecast: rows = 16384; cols = 1024; eps = 0.00001; x: f32[rows, cols] randn; gamma: f32[cols] randn; beta: f32[cols] randn; y: f32[rows, cols]; rtol = 1e-3; atol = 1e-3
__global__ void __launch_bounds__(THREADS)
layernorm(const float* __restrict__ x, const float* __restrict__ gamma, const float* __restrict__ beta,
          float* __restrict__ y, int rows, int cols, float eps)
{
    __shared__ float sh_n[WARPS], sh_mean[WARPS], sh_m2[WARPS];
    const float* xr = x + (size_t)blockIdx.x * cols;
    float* yr = y + (size_t)blockIdx.x * cols;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

    float n = 0.0f, mean = 0.0f, m2 = 0.0f;
    for (int i = threadIdx.x; i < cols; i += THREADS) {
        const float v = xr[i];
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
    if (lane == 0) {
        sh_n[warp] = n;
        sh_mean[warp] = mean;
        sh_m2[warp] = m2;
    }
    __syncthreads();
    n = sh_n[0];
    mean = sh_mean[0];
    m2 = sh_m2[0];
    for (int w = 1; w < WARPS; ++w) welford_merge(n, mean, m2, sh_n[w], sh_mean[w], sh_m2[w]);
    const float rstd = rsqrtf(m2 / cols + eps);

    for (int i = threadIdx.x; i < cols; i += THREADS)
        yr[i] = (xr[i] - mean) * rstd * gamma[i] + beta[i];
}

extern "C" void launch_layernorm(const float* x, const float* gamma, const float* beta, float* y, int rows,
                                 int cols, float eps, cudaStream_t stream)
{
    layernorm<<<rows, THREADS, 0, stream>>>(x, gamma, beta, y, rows, cols, eps);
}
